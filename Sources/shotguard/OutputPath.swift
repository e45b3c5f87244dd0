// Where `-o` may write: a regular file it replaces, or a new name; never a device, FIFO or folder.
import Glibc

enum OutputPath {
    /// Refuses an output path that names anything but a regular file or nothing yet: the
    /// atomic write renames a new file over it, which would turn `/dev/null` into a file as
    /// root, cut a FIFO's reader off, or leave a symbolic link's target as it was. `-` is
    /// standard output. `option` is how the error names it (`-o`, `quarantine restore -o`).
    static func check(_ path: String, option: String) throws(CLIError) {
        guard path != "-" else { return }
        var status = stat()
        guard lstat(path, &status) == 0 else { return }  // a new name (or one the write will explain)
        let kind: String
        switch status.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFDIR: kind = "a folder"
        case S_IFIFO: kind = "a FIFO"
        case S_IFCHR: kind = "a character device"
        case S_IFBLK: kind = "a block device"
        case S_IFSOCK: kind = "a socket"
        case S_IFLNK: kind = "a symbolic link (name the file it points to)"
        default: kind = "not a regular file"
        }
        throw .usage("\(option) '\(path)' is \(kind): the output must be a regular file or a new name (- for standard output)")
    }
}
