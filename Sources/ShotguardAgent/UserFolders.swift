// The user's home, and private folders the agent creates or trusts (spool, lock).
import Glibc

enum UserFolders {
    /// `$HOME` when it is an absolute path, else the home in the password database (as under
    /// some service managers), else nil.
    static func home() -> String? {
        if let home = getenv("HOME").map({ String(cString: $0) }), home.hasPrefix("/") { return home }
        guard let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir else { return nil }
        return String(cString: directory)
    }

    /// Creates `path` and its missing parents with mode 0700, then checks that the last folder
    /// is a real folder owned by this user that nobody else can read or write: reports and
    /// locks must not live where another user can read them or pre-create them.
    static func makePrivate(_ path: String) throws(SystemError) {
        var current = ""
        for part in path.split(separator: "/") {
            current += "/" + part
            if mkdir(current, 0o700) != 0, errno != EEXIST { throw SystemError(call: "mkdir \(current)", code: errno) }
        }
        var status = stat()
        guard lstat(path, &status) == 0 else { throw SystemError(call: "lstat \(path)", code: errno) }
        guard status.st_mode & S_IFMT == S_IFDIR, status.st_uid == getuid(), status.st_mode & 0o077 == 0 else {
            throw SystemError(call: "\(path) is not a private folder of this user (expected mode 0700, owned by uid \(getuid()))",
                              code: EPERM)
        }
    }
}
