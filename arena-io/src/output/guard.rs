//! What an output may replace and which files it must differ from: the kind of file a name
//! holds (only a regular file, or a folder for an output folder, is ever replaced: a rename
//! over a symbolic link, a FIFO or a device replaces the link or the device itself), and the
//! one comparison of a command's files, by device and inode ([`same_file`],
//! [`check_distinct`]). Re-exported by [`crate::output`].

use std::fmt;
use std::fs;
use std::path::Path;

use crate::fields::Field;

/// What a name in the file system holds, as far as replacing it goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// A regular file.
    Regular,
    /// A folder.
    Folder,
    /// A symbolic link (to anything, or dangling).
    Symlink,
    /// A named pipe.
    Fifo,
    /// A character device (`/dev/null`, a terminal).
    CharDevice,
    /// A block device (a disk).
    BlockDevice,
    /// A Unix socket.
    Socket,
    /// Anything else the system knows.
    Other,
}

impl FileKind {
    /// What `path` holds, not following a final symbolic link; `None` when it does not exist
    /// (or cannot be looked at: the write will say why).
    pub fn of(path: &Path) -> Option<FileKind> {
        let file_type = fs::symlink_metadata(path).ok()?.file_type();
        Some(if file_type.is_symlink() {
            FileKind::Symlink
        } else if file_type.is_file() {
            FileKind::Regular
        } else if file_type.is_dir() {
            FileKind::Folder
        } else {
            special_kind(&file_type)
        })
    }
}

/// The kind of a file that is neither a regular file, a folder nor a link.
#[cfg(unix)]
fn special_kind(file_type: &fs::FileType) -> FileKind {
    use std::os::unix::fs::FileTypeExt;
    if file_type.is_fifo() {
        FileKind::Fifo
    } else if file_type.is_char_device() {
        FileKind::CharDevice
    } else if file_type.is_block_device() {
        FileKind::BlockDevice
    } else if file_type.is_socket() {
        FileKind::Socket
    } else {
        FileKind::Other
    }
}

/// The kind of a file that is neither a regular file, a folder nor a link.
#[cfg(not(unix))]
fn special_kind(_: &fs::FileType) -> FileKind {
    FileKind::Other
}

impl std::fmt::Display for FileKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            FileKind::Regular => "a regular file",
            FileKind::Folder => "a folder",
            FileKind::Symlink => "a symbolic link",
            FileKind::Fifo => "a named pipe (FIFO)",
            FileKind::CharDevice => "a character device",
            FileKind::BlockDevice => "a block device",
            FileKind::Socket => "a socket",
            FileKind::Other => "a special file",
        })
    }
}

/// Whether `path` is a symbolic link (dangling or not).
pub(super) fn is_symlink(path: &Path) -> bool {
    FileKind::of(path) == Some(FileKind::Symlink)
}

/// How a message names one of a command's files: by the field that gave it (an output's
/// option, a positional argument), or by what it is (`replay file`, `weights file`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileName {
    /// A file given by a field of the request, named in the caller's words.
    Field(Field),
    /// A file named by what it is.
    What(&'static str),
}

impl fmt::Display for FileName {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileName::Field(field) => field.fmt(formatter),
            FileName::What(what) => formatter.write_str(what),
        }
    }
}

impl From<Field> for FileName {
    fn from(field: Field) -> FileName {
        FileName::Field(field)
    }
}

/// An output the arena refuses to write, or two files of one command that must differ.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OutputError {
    /// An output name that holds something other than what the output is (a regular file,
    /// or a folder for an output folder): outputs are renamed into place, which would replace
    /// the link, pipe or device itself.
    #[error(
        "{named}{path}: is {found}, not {expected}: the arena writes an output beside \
         it and renames it into place, which would replace the {found_short} itself; give {give}",
        named = option.map(|field| format!("{field} ")).unwrap_or_default(),
        found_short = found.to_string().trim_start_matches("a ").trim_start_matches("an "),
        give = if *expected == FileKind::Folder { "a new or existing folder" } else { "a new name or a regular file" },
    )]
    NotReplaceable {
        /// The field of the output (`None` at write time, when it is not known).
        option: Option<Field>,
        /// The output's path.
        path: String,
        /// What the path holds.
        found: FileKind,
        /// What it should hold.
        expected: FileKind,
    },
    /// Two outputs of one command in the same file.
    #[error(
        "{first} {first_path} and {second} {second_path} are the same file: one output would \
         overwrite the other; give two files"
    )]
    SameOutput {
        /// The first output's field.
        first: FileName,
        /// Its path.
        first_path: String,
        /// The second output's field.
        second: FileName,
        /// Its path.
        second_path: String,
    },
    /// An output that is one of the command's inputs.
    #[error(
        "{output} {output_path} is the same file as the {input} {input_path} this command \
         reads: writing it would destroy the input; give another file"
    )]
    OutputIsInput {
        /// The output's field.
        output: FileName,
        /// Its path.
        output_path: String,
        /// The input, as its messages name it (`replay file`, `weights file`, …).
        input: FileName,
        /// Its path.
        input_path: String,
    },
    /// An output folder (replaced as a whole, or a work folder whose files the command
    /// writes and removes) that holds an input or another output.
    #[error(
        "{folder} {folder_path} holds the {inner} {inner_path}, and the folder is this \
         command's own (replaced as a whole, or its files written and removed): give a folder \
         that holds none of this command's other files"
    )]
    FolderHoldsFile {
        /// The output folder's field.
        folder: FileName,
        /// Its path.
        folder_path: String,
        /// The file inside, as its messages name it (an input's name or an output's field).
        inner: FileName,
        /// Its path.
        inner_path: String,
    },
}

/// Refuses an output name that holds anything but `expected` (a regular file, or a folder
/// for an output folder): a symbolic link, a FIFO, a device or a socket would be replaced by
/// the rename that puts the output in place (`/dev/null` replaced by a regular file, a link
/// by the file instead of the file it points to). A name that does not exist is fine.
/// Called before any game ([`super::check_output_file`], [`super::check_output_folder`]) and
/// again just before the rename ([`super::write_atomically`], [`super::write_folder`]), in
/// case the path changed.
pub fn check_replaceable(
    option: Option<Field>,
    path: &Path,
    expected: FileKind,
) -> Result<(), OutputError> {
    match FileKind::of(path) {
        Some(found) if found != expected => Err(OutputError::NotReplaceable {
            option,
            path: path.display().to_string(),
            found,
            expected,
        }),
        _ => Ok(()),
    }
}

/// Checks that a command's outputs are distinct files and none is one of its inputs: `outputs`
/// and `inputs` name each file (an option such as `--html`, or an input's name such as
/// `replay file`) with its path. Files are compared by device and inode when they exist
/// ([`same_file`]), so another name, a hard link or a symbolic link to an input is caught;
/// an output folder that exists must not hold an input or another output (it is replaced as
/// a whole). The one place every command's files are compared.
pub fn check_distinct(
    outputs: &[(FileName, &Path)],
    inputs: &[(FileName, &Path)],
) -> Result<(), OutputError> {
    let shown = |path: &Path| path.display().to_string();
    for (index, &(first, first_path)) in outputs.iter().enumerate() {
        for &(second, second_path) in &outputs[index + 1..] {
            if same_file(first_path, second_path) {
                return Err(OutputError::SameOutput {
                    first,
                    first_path: shown(first_path),
                    second,
                    second_path: shown(second_path),
                });
            }
        }
        for &(input, input_path) in inputs {
            if same_file(first_path, input_path) {
                return Err(OutputError::OutputIsInput {
                    output: first,
                    output_path: shown(first_path),
                    input,
                    input_path: shown(input_path),
                });
            }
        }
    }
    for &(folder, folder_path) in outputs {
        if FileKind::of(folder_path) != Some(FileKind::Folder) {
            continue;
        }
        let others = outputs
            .iter()
            .filter(|(_, path)| !same_file(path, folder_path))
            .chain(inputs);
        for &(inner, inner_path) in others {
            if is_inside(inner_path, folder_path) {
                return Err(OutputError::FolderHoldsFile {
                    folder,
                    folder_path: shown(folder_path),
                    inner,
                    inner_path: shown(inner_path),
                });
            }
        }
    }
    Ok(())
}

/// Whether `path` (which need not exist) lies somewhere under the existing folder `folder`,
/// by device and inode of each of its folders.
fn is_inside(path: &Path, folder: &Path) -> bool {
    let Some(folder_identity) = identity(folder) else {
        return false;
    };
    let resolved = fs::canonicalize(path).ok().or_else(|| {
        let parent = match path.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent,
            _ => Path::new("."),
        };
        Some(fs::canonicalize(parent).ok()?.join(path.file_name()?))
    });
    let Some(resolved) = resolved else {
        return false;
    };
    resolved
        .ancestors()
        .skip(1)
        .any(|ancestor| identity(ancestor) == Some(folder_identity))
}

/// The device and inode of the file `path` names (following links), when it exists.
#[cfg(unix)]
fn identity(path: &Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    let metadata = fs::metadata(path).ok()?;
    Some((metadata.dev(), metadata.ino()))
}

/// Elsewhere the resolved path stands for the file.
#[cfg(not(unix))]
fn identity(path: &Path) -> Option<(u64, u64)> {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    fs::canonicalize(path).ok()?.hash(&mut hasher);
    Some((0, hasher.finish()))
}

/// Whether `first` and `second` name the same file: when both exist, whether they are one
/// file by device and inode (so `F`, `./F`, `dir/../F`, a hard link and a symbolic link to F
/// all are); when neither exists, whether their folders resolve to one and their names are
/// equal (two outputs still to be written). An existing file and a missing one differ.
pub fn same_file(first: &Path, second: &Path) -> bool {
    match (identity(first), identity(second)) {
        (Some(first), Some(second)) => first == second,
        (None, None) => {
            let resolve = |path: &Path| -> Option<std::path::PathBuf> {
                let folder = match path.parent() {
                    Some(folder) if !folder.as_os_str().is_empty() => folder,
                    _ => Path::new("."),
                };
                Some(fs::canonicalize(folder).ok()?.join(path.file_name()?))
            };
            match (resolve(first), resolve(second)) {
                (Some(first), Some(second)) => first == second,
                _ => first == second,
            }
        }
        _ => false,
    }
}
