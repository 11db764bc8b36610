// The worker's script (helper fills).
