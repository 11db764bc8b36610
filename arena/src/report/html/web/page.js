// The live page's script (helper fills).
