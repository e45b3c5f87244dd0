// Follows protected pixels from the program that read them off the screen to every file it, its children and the programs it pipes to write.
import Glibc
import ShotguardBase

/// What following the pixels found.
enum FollowedPixels: Sendable {
    /// A file a holder wrote, held open since the agent first saw it, complete now: with the
    /// read its pixels came from, how the file is tied to it, and the screen the agent grabbed
    /// at that read (when it kept one).
    case file(BytePath, held: HeldFile?, read: ScreenReadRecord, link: ReadLink, screen: Snapshot?)
    /// Every process holding a read's pixels is gone, and no image of theirs was guarded: the
    /// pixels went where the agent could not follow (a pipe to another machine, a format it
    /// cannot see, a folder in no namespace it reaches).
    case lost(ScreenReadRecord)
}

/// A read that held protected pixels marks its process as holding them until it exits, and with
/// it every process it starts and every process at the other end of its pipes and sockets
/// (`PixelHolders`). Each holder's open files are looked at from /proc: a file it holds open
/// for writing is opened by the agent at once (through `/proc/PID/fd/N`, so the file itself is
/// held, whatever its name becomes and in whatever mount namespace it lies) and handed on when
/// it is complete. The folders of those files, of the names on its command line and its working
/// folder are watched with inotify, so a file closed in between polls is seen too.
final class PixelFollower {
    private(set) var holders = PixelHolders()
    private var files = HeldFiles()
    private let inotify: Inotify?
    /// Folders watched for the holders, with how many holders want each.
    private var watched: [BytePath: Int] = [:]
    private var folders: [Int32: Set<BytePath>] = [:]
    /// Paths each holder named on its command line (made absolute).
    private var named: [Int32: Set<BytePath>] = [:]
    /// The file each holder's standard output was when it read, as the sentinel saw it.
    private var outputs: [Int32: OutputFile] = [:]
    /// Each holder's working folder and the folders it names, where an image it wrote may land
    /// unseen.
    private var workingFolders: [Int32: Set<BytePath>] = [:]
    /// The images each holder named, without their extensions: a file beside one, named after
    /// it, is the holder's too (a thumbnail).
    private var namedStems: [Int32: Set<BytePath>] = [:]
    /// The folders each holder named, and the folders of the files it named: where its file may
    /// have been moved or renamed (`-e 'mv $f dir/'`, `&& mv x.bin x.png`) before they were watched.
    private var namedFolders: [Int32: Set<BytePath>] = [:]
    /// The mount namespace of each holder that sees files in another than the agent's, and its
    /// parent: the names it gave are reached through the parent once it has exited.
    private var namespaces: [Int32: (namespace: MountNamespace, parent: Int32?)] = [:]
    /// Descriptors that become readable when a holder exits, by pid.
    private var exits: [Int32: Int32] = [:]
    private var nextPoll: Double?
    /// Whether the usual places to save in are watched (while any holder lives).
    private var commonWatched = false
    /// The watcher of those places in `folders`: no process has pid 0.
    private static let commonWatcher: Int32 = 0
    /// When each holder is looked at next, and its session scanned next.
    private var nextLook: [Int32: Double] = [:]
    private var nextScan: [Int32: Double] = [:]
    private let log: Log

    /// The agent and the processes it was started by: never holders (what the agent writes is
    /// its own, and its shell's other programs got nothing from a reader).
    private let excluded: Set<Int32>

    static let maximumFolders = 32
    /// A child started this long before the read is still taken to be started after it (the
    /// two clocks are read at different moments).
    static let startSlack = 0.5
    /// How often a holder's open files and children are looked at while it is watched closely,
    /// and after that.
    static let fastInterval = 0.02
    static let slowInterval = 0.5
    /// How often its session is scanned for processes sharing its pipes, while watched closely.
    static let scanInterval = 0.1

    /// The agent's own folders: nothing a holder writes there is followed.
    private let own: OwnFolders
    /// Where a file held is also held from other programs' opens (the hold helper, if it runs).
    private let openers: OpenersHold?

    /// The display the agent watches: a program taken for a reader the server could not tell
    /// names it in its environment.
    private let display: DisplayAddress?

    init(own: OwnFolders, openers: OpenersHold? = nil, display: String, log: Log) {
        self.own = own
        self.openers = openers
        self.display = DisplayAddress(display)
        self.log = log
        let agent = getpid()
        excluded = Set([agent] + Self.ancestry(of: agent))
        do throws(SystemError) {
            inotify = try Inotify()
        } catch {
            log.warning("cannot follow screen readers to their files (\(error)): only watched folders are seen")
            inotify = nil
        }
    }

    /// The inotify descriptor and each holder's exit descriptor, with what each is.
    var descriptors: [(fd: Int32, pid: Int32?)] {
        guard !holders.isEmpty else { return [] }
        return (inotify.map { [($0.fileDescriptor, nil)] } ?? []) + exits.map { ($0.value, $0.key) }
    }

    var deadline: Double? { !stashed.isEmpty ? 0 : holders.isEmpty ? nil : nextPoll }

    /// Whether `read`, which `hold` could not follow, is the first such read of its client:
    /// nothing ties its image to it, so it is said, once a client.
    func firstUnfollowed(_ read: ScreenReadRecord) -> Bool {
        guard read.holdsProtectedPixels, unnamedReaders.count < Self.unnamedLimit else { return false }
        return unnamedReaders.insert(read.client).inserted
    }

    /// A client ended: its id may be another client's next.
    func clientEnded(_ client: UInt32) {
        unnamedReaders.remove(client)
        takenFor[client] = nil
    }

    /// The clients `firstUnfollowed` said, until each ends; bounded by the server's clients.
    private var unnamedReaders: Set<UInt32> = []
    static let unnamedLimit = 1024

    /// A read that held protected pixels: its process holds them now. `process` is what /proc
    /// showed of it when it read: when it is gone already, the program reading its output pipe
    /// is found by that pipe. False when it cannot be followed: the server could not tell its
    /// process (the client closed its connection before the sentinel asked, as ImageMagick's
    /// `import` may on a loaded machine, or it is not on this machine: a client over TCP), or
    /// the process was gone before the sentinel looked at it in /proc, or it was gone before
    /// the agent did and left nothing it could find.
    func hold(_ read: ScreenReadRecord, process: ProcessSnapshot?, at now: Double) -> Bool {
        guard read.holdsProtectedPixels else { return true }
        guard let pid = read.pid else { return followTakenFor(read, at: now) }
        add(pid: pid, read: read, origin: .read, at: now, seen: process?.details)
        if holders.holder(pid) != nil {
            // It may write its standard output's file and exit between two looks: that file is
            // looked at when it exits.
            if let output = process?.outputFile { outputs[pid] = output }
            return true
        }
        guard !excluded.contains(pid) else { return true }
        guard let process else { return false }
        // Gone before the agent looked (xwd -root -out f, xwd -root > f, xwd -root | convert
        // xwd:- f): the files its command line names and its standard output, written since the
        // read, and its pipe's reader.
        let named = Self.namedPaths(process.details, folder: process.details.workingFolder.map { BytePath(bytes: $0) })
        let found = written(named.files, by: read, link: .writer) + written(output: process.outputFile, by: read)
        stashed += found
        var readers: [Int32] = []
        if let output = process.output {
            readers = ProcessTree.processes(reading: output, except: settledHolders(forNamed: true))
            for reader in readers { add(pid: reader, read: read, origin: .channel(with: pid), at: now) }
        }
        return !found.isEmpty || readers.contains { holders.holder($0) != nil }
    }

    /// The programs taken for each client whose process the server could not tell, looked for
    /// at its first read that held protected pixels; bounded by `unnamedLimit`.
    private var takenFor: [UInt32: [Int32]] = [:]
    /// The last look for such programs, and what it found.
    private var lastTakenScan: (at: Double, pids: [Int32])?
    /// The most programs taken for one such client, and how long before its read one may have
    /// started (ImageMagick loads for a while before it connects, on a loaded machine for seconds).
    static let takenForLimit = 4
    static let takenForWindow = 10.0

    /// A read whose process the server could not tell because its client closed its connection
    /// before the sentinel asked (ImageMagick's `import` reads on a second connection it closes
    /// at once, and the server may handle all of it before the question); a client over TCP
    /// (the server has it, with no process) is not on this machine, and nothing stands for it. The
    /// programs of this user started on this display (its name in their environment) up to
    /// `takenForWindow` before the read and still running are followed in its stead, at most
    /// `takenForLimit`, those linked to Xlib or xcb first: what they write counts only where
    /// its pixels are the screen's (`ReadLink.inferred`), so a photo they write is left alone.
    /// Looked for once a client; its later reads go to the same programs. False when none was found.
    private func followTakenFor(_ read: ScreenReadRecord, at now: Double) -> Bool {
        let pids: [Int32]
        if let known = takenFor[read.client] {
            pids = known
        } else {
            guard read.readerHungUp, let display, takenFor.count < Self.unnamedLimit else { return false }
            let readAtBoot = bootTime(of: read, now: now)
            // Readers that hang up together share a scan made within `scanInterval` after their
            // reads (their programs had started by then): /proc is read a few times a second at most.
            if let last = lastTakenScan, now - last.at < Self.scanInterval, read.time.monotonic <= last.at {
                pids = last.pids.filter { holders.holder($0)?.isInferred ?? true }
            } else {
                pids = DisplayClients.started(on: display, from: readAtBoot - Self.takenForWindow, to: readAtBoot + Self.startSlack,
                                              except: excluded.union(holders.holders.keys), limit: Self.takenForLimit)
                lastTakenScan = (now, pids)
            }
            takenFor[read.client] = pids
            if !pids.isEmpty {
                let names = pids.map { "\(ProcessList.name(of: $0) ?? "?") (pid \($0))" }
                log.info("\(read.program) read the screen (\(read.protected.count) protected rectangles in it), and the X server "
                    + "could not tell its process (it closed its connection before it was asked): following \(String(listing: names, last: "and")), "
                    + "started on this display as it connected; what they write is redacted only where it is the screen's")
            }
        }
        for pid in pids { add(pid: pid, read: read, origin: .read, at: now) }
        return pids.contains { holders.holder($0)?.isInferred == true }
    }

    /// The file a process wrote as its standard output, when its path names that very file here
    /// now (the path is the process's: after a rename, or in another mount namespace, it may
    /// name another file, or none), written since `read` and an image.
    private func written(output: OutputFile?, by read: ScreenReadRecord, link: ReadLink = .writer) -> [FollowedPixels] {
        guard let output, output.path.first == UInt8(ascii: "/") else { return [] }
        let path = BytePath(bytes: output.path)
        guard let identity = FileIdentity.of(path: path), identity.device == output.device, identity.inode == output.inode else {
            return []
        }
        return written([path], by: read, link: link)
    }

    /// The files of `paths` that exist now, written since `read` (a second before it, for the
    /// clocks), whose bytes start as an image: a holder named them, and they are complete
    /// since it is gone.
    private func written(_ paths: Set<BytePath>, by read: ScreenReadRecord, link: ReadLink) -> [FollowedPixels] {
        paths.compactMap { path in
            guard !own.contains(path), let identity = FileIdentity.of(path: path), identity.mode & S_IFMT == S_IFREG,
                  identity.size > 0, seconds(identity.modified) >= read.time.wall - 1,
                  let held = HeldFile.open(path, expecting: identity), ImageSignature.isImage(held.head(ImageSignature.length)) else {
                return nil
            }
            return .file(path, held: held, read: read, link: link, screen: holders.screen(of: read))
        }
    }

    /// Keeps the screen the agent grabbed at `read` while its pixels are followed; says so as
    /// the event `holding` (a test changes the screen only once the agent has it).
    /// A read whose process the server could not tell is said once for each program taken for it.
    func keep(_ screen: Snapshot?, for read: ScreenReadRecord) {
        let pids = read.pid.map { [$0] } ?? takenFor[read.client] ?? []
        let holding = pids.compactMap { holders.holder($0) }
        guard !holding.isEmpty else { return }
        if let screen { holders.keep(screen, for: read) }
        for holder in holding {
            log.events.say("holding", [("program", .string(holder.program)), ("pid", .number(Int(holder.pid))),
                                       ("screen", .bool(holders.screen(of: read) != nil))])
        }
    }

    /// The holder behind `pid`: the process itself, or the nearest holder among its ancestors.
    func holder(of pid: Int32) -> PixelHolder? {
        holders.holder(of: pid, ancestry: Self.ancestry(of: pid))
    }

    /// The file `identity` names, when a holder wrote it: the file held, its read and link.
    func writer(of path: BytePath, identity: FileIdentity)
        -> (held: HeldFile?, read: ScreenReadRecord, link: ReadLink, screen: Snapshot?)? {
        if let entry = files.entry(device: identity.device, inode: identity.inode), let holder = holders.holder(entry.writer) {
            return (entry.file, holder.read, holder.link, holders.screen(of: holder.read))
        }
        for (pid, paths) in named where namespaces[pid] == nil && paths.contains(path) {
            if let holder = holders.holder(pid) { return (nil, holder.read, holder.link, holders.screen(of: holder.read)) }
        }
        return nil
    }

    /// A process found to be recording (and what it started or pipes to): its frames are the
    /// shield's business, and a video is no screenshot to rewrite, so its pixels are not said
    /// lost when it writes no image. A still image it writes is still followed: `ffmpeg -f
    /// x11grab -frames:v 1 f.png` of a small area reads twenty frames before it writes one, and
    /// that first frame was read before the shield's covers went up. One the rules trust is
    /// followed no further.
    func recording(_ pid: Int32, trusted: Bool) {
        guard let holder = holders.holder(pid) else { return }
        // Its own and its children's: one client's reads, of one process (a client id is the next
        // client's once it ends, and programs taken for an unnamed reader hold its old one).
        for other in holders.holders.values where other.read.client == holder.read.client && other.read.pid == holder.read.pid {
            if trusted {
                holders.remove(other.pid)
                forget(other.pid)
            } else {
                holders.recording(other.pid)
            }
        }
        log.verbose(trusted ? "stopped following \(holder.program) (pid \(pid)): it is recording, trusted by the rules"
            : "following \(holder.program) (pid \(pid)) for the still images it writes: it is recording")
    }

    /// An image from `read`'s pixels was guarded: the read was followed to it.
    func guarded(_ read: ScreenReadRecord) { holders.guarded(read) }

    /// A holder exited (its exit descriptor is readable).
    func exited(_ pid: Int32, at now: Double) -> [FollowedPixels] {
        if let fd = exits.removeValue(forKey: pid) { close(fd) }
        holders.exited(pid, at: now)
        // What it held open is complete now; what it wrote in its last moments is in inotify,
        // or, when it was closed before the agent watched its folder, at the names it gave.
        var found = readEvents(at: now) + files.completeAll(writtenBy: pid).compactMap { complete($0) }
        if let holder = holders.holder(pid) {
            // Its pipeline's next program may have started after the last look: a shell starts
            // `xwd -root | convert xwd:- f` one program after the other, and under load xwd reads
            // and exits before convert is there to be found; it is found now, with its file.
            if case .read = holder.origin, let parent = holder.read.parentPID {
                followSiblings(of: holder, parent: parent, started: ProcessTree.startSeconds(ticks: holder.startTime), at: now)
            }
            let handed = Set(found.compactMap { if case .file(let path, _, _, _, _) = $0 { path } else { nil } })
            // Names in a mount namespace of its own are reached through its parent, while that lives.
            let reach = { (paths: Set<BytePath>) -> Set<BytePath> in
                guard let (namespace, parent) = self.namespaces[pid] else { return paths }
                return Set(paths.compactMap { MountNamespace.reach($0, in: namespace, through: parent) })
            }
            found += written(reach(named[pid] ?? []).subtracting(handed), by: holder.read, link: holder.link)
            if let output = outputs[pid], !handed.contains(BytePath(bytes: output.path)) {
                found += written(output: output, by: holder.read, link: holder.link)
            }
            // Nothing at the names it gave: its file may have been moved or renamed into a folder it
            // named before that folder was watched (the agent came late).
            // Only files written between its read and its exit: a photo saved there later is none of its.
            if found.isEmpty {
                let exitedAt = holder.read.time.wall + (now - holder.read.time.monotonic)
                let candidates = Self.files(in: reach(namedFolders[pid] ?? [])).subtracting(handed).filter { path in
                    FileIdentity.of(path: path).map { seconds($0.modified) <= exitedAt + 0.5 } ?? false
                }
                // Anyone may write there: as an image in a reader's working folder, it counts
                // only where its pixels are the screen's (a photo saved there is left alone).
                found += written(candidates, by: holder.read, link: .folder)
            }
            log.verbose("\(holder.program) (pid \(pid)) exited; \(found.count) of its files handed on at its exit")
        }
        // Its files are held as files now (before its names go, so that an open that waited on a
        // name waits on for guard).
        for case .file(_, let held?, _, _, _) in found { openers?.hold(held, writer: nil, at: now) }
        openers?.releaseNames(writer: pid)
        return found
    }

    /// Files closed or moved in the watched folders.
    func readEvents(at now: Double) -> [FollowedPixels] {
        guard let inotify else { return [] }
        var found: [FollowedPixels] = []
        for event in inotify.read() where event.has(IN_CLOSE_WRITE) || event.has(IN_MOVED_TO) || event.has(IN_CREATE) {
            guard let folder = inotify.folder(of: event.watch) else { continue }
            let path = folder.appending(event.name)
            guard let identity = FileIdentity.of(path: path), identity.mode & S_IFMT == S_IFREG else { continue }
            // A name made for a file: empty when made to be written (its close comes later), an
            // image already when an unnamed file written whole is linked in (`linkat`).
            // A new file anywhere followed: the holders' open files are looked at now, while it
            // is being written (a save takes milliseconds, less than the wait between looks).
            if event.has(IN_CREATE), identity.size == 0 {
                for holder in holders.holders.values where holder.exitedAt == nil {
                    found += lookAt(holder, closely: false, now: now)
                }
                continue
            }
            if files.entry(device: identity.device, inode: identity.inode) != nil {
                // A held file: closed now (handed on), or only moved (still being written).
                if event.has(IN_CLOSE_WRITE), let done = files.complete(device: identity.device, inode: identity.inode),
                   let followed = complete(done) {
                    found.append(followed)
                }
                continue
            }
            found += arrived(path, identity: identity, now: now)
        }
        return found
    }

    /// What a look between the agent's long steps found, handed on at the next `poll`.
    private var stashed: [FollowedPixels] = []

    /// A look between the agent's long steps (decoding, placing, rewriting an image: tens of
    /// milliseconds, in which a fast program a holder started may come and go): holders and
    /// files are taken in now, what is complete is handed on at the next `poll`.
    func pollBetweenSteps(at now: Double) {
        stashed += poll(at: now, handingOn: false)
    }

    /// The holders' open files, children and pipes, looked at when due; holders gone for a
    /// while forgotten, with the reads whose pixels went nowhere.
    func poll(at now: Double) -> [FollowedPixels] { poll(at: now, handingOn: true) }

    private func poll(at now: Double, handingOn: Bool) -> [FollowedPixels] {
        var found: [FollowedPixels] = []
        if handingOn {
            found = stashed
            stashed = []
        }
        guard let due = nextPoll, now >= due else { return found }
        for holder in holders.holders.values where holder.exitedAt == nil && now >= nextLook[holder.pid] ?? 0 {
            let closely = now < holder.watchedUntil
            nextLook[holder.pid] = now + (closely ? Self.fastInterval : Self.slowInterval)
            found += lookAt(holder, closely: closely, now: now)
        }
        if handingOn {
            // A program only taken for an unnamed reader may be a terminal or a browser started
            // then, living for hours: it is followed while watched closely, no longer.
            for holder in holders.holders.values where holder.isInferred && holder.exitedAt == nil && now >= holder.watchedUntil {
                holders.exited(holder.pid, at: now)
                forget(holder.pid)
                log.verbose("stopped following \(holder.program) (pid \(holder.pid)): it was only taken for \(holder.read.program)")
            }
            for read in holders.prune(at: now) { found.append(.lost(read)) }
            for pid in Set(folders.keys).union(nextLook.keys) where pid != Self.commonWatcher && holders.holder(pid) == nil {
                forget(pid)
            }
            if holders.isEmpty, commonWatched {
                forget(Self.commonWatcher)
                commonWatched = false
            }
        }
        let live = holders.holders.values.filter { $0.exitedAt == nil }.compactMap { nextLook[$0.pid] }
        nextPoll = holders.isEmpty ? nil : min(live.min() ?? .infinity, now + Self.slowInterval)
        return found
    }

    // MARK: holders

    /// `seen`: what /proc showed of it when it read (the sentinel looks at once), preferred to
    /// what it shows now when that has no command line left: a process that exited and was not
    /// reaped yet (a zombie) has none, nor a working folder.
    private func add(pid: Int32, read: ScreenReadRecord, origin: PixelHolder.Origin, at now: Double, seen: ProcessDetails? = nil) {
        guard !excluded.contains(pid), let stat = ProcessStat.of(pid: pid) else { return }
        let current = ProcessDetails.of(pid: pid)
        let details = current.map { $0.arguments.isEmpty ? (seen ?? $0) : $0 } ?? seen
        let program = details?.program ?? read.program
        let holder = PixelHolder(pid: pid, startTime: stat.startTime, session: stat.session, program: program, origin: origin,
                                 read: read, watchedUntil: now + PixelHolders.watchFor)
        guard holders.add(holder) else { return }
        if exits[pid] == nil, let fd = pidfdOpen(pid) { exits[pid] = fd }
        // In a mount namespace of its own, the paths it gives are no paths of the agent's: a file
        // at one of them here is somebody else's. They are reached through its parent at its exit.
        let foreign = MountNamespace.of(pid: pid).flatMap { $0 == MountNamespace.own ? nil : $0 }
        if let foreign { namespaces[pid] = (foreign, details?.parentPID) }
        watchCommonFolders()
        if let details {
            let folder = details.workingFolder.map { BytePath(bytes: $0) }
            // Paths it names: files it may write (watched by their folders) and folders it may
            // write into (a file it links into one, an O_TMPFILE's `linkat`, may be written and
            // named between two looks at its descriptors).
            let paths = Self.namedPaths(details, folder: folder)
            named[pid] = paths.files
            // The names it may write its image to: not there yet or an image's (`x.bin` to come,
            // `shot.png`; never `/dev/null`, a log, a configuration file).
            let imageNames = paths.files.filter {
                !own.contains($0) && (FileIdentity.of(path: $0) == nil || ScreenshotFileClassifier.looksLikeImage($0.lastComponent))
            }
            // Only their folders are scanned at its exit: the folder of a log or of `$HOME/.config/…`
            // it names holds the person's own images, none of them its output.
            namedFolders[pid] = paths.folders.union(imageNames.compactMap(\.parent))
            if foreign == nil {
                // What it writes beside an image it names, under that image's name and more (scrot
                // -t's `shot-thumb.png` beside `shot.png`), is its, where its pixels are the screen's.
                namedStems[pid] = Set(imageNames.map(\.withoutExtension))
                for watched in [folder].compactMap({ $0 }) + paths.folders {
                    workingFolders[pid, default: []].insert(watched)
                    watch(watched, for: pid)
                }
                for path in paths.files {
                    if let parent = path.parent { watch(parent, for: pid) }
                }
                // Held by its name before it exists: the program may write it and exit, and the
                // next command read it, between two looks at its descriptors.
                for path in imageNames { openers?.holdName(path, writer: pid, at: now) }
            }
        }
        nextPoll = now
        log.verbose("following \(program) (pid \(pid)): it holds protected pixels read by \(read.program)"
            + (origin == .read ? "" : " (\(holder.link.rawValue))"))
        // The next program of its pipeline, at once: a reader that writes to a pipe may be gone
        // before the next look (xwd -root | convert …). And the programs it started after the
        // read, at once too: a chain (scrot → sh -c → convert) may be done before the next look.
        followPipe(of: holder, stat: stat, at: now)
        followChildren(of: holder, at: now)
        // Its open files at once, not at the next look: the end of a pipeline (`| cat > f`,
        // whose file its command line does not name) may be done before then.
        if origin != .read {
            stashed += lookAt(holder, closely: true, now: now)
            nextLook[pid] = now + Self.fastInterval
        }
    }

    /// The processes that hold the pixels already, or may never: none is made a holder again.
    /// For pixels of a named read (`named`), a program only taken for an unnamed reader is not
    /// one: it holds the named read's from then on (a shell taken for `import` runs `maim |
    /// convert`; maim's own read names it, and convert is its pipe's reader, no longer taken).
    private func settledHolders(forNamed named: Bool) -> Set<Int32> {
        Set(holders.holders.values.filter { !(named && $0.isInferred) }.map(\.pid)).union(excluded)
    }

    /// The programs `holder` started after its read become holders.
    private func followChildren(of holder: PixelHolder, at now: Double) {
        let readAtBoot = bootTime(of: holder.read, now: now)
        let settled = settledHolders(forNamed: !holder.isInferred)
        for child in ProcessTree.children(of: holder.pid) where !settled.contains(child) {
            guard let stat = ProcessStat.of(pid: child), ProcessTree.startSeconds(stat) >= readAtBoot - Self.startSlack else { continue }
            add(pid: child, read: holder.read, origin: .child(of: holder.pid), at: now)
        }
    }

    /// The program reading what `holder` writes to its standard output pipe becomes a holder.
    /// When the holder is gone already, its pipe cannot be seen any more: the programs started
    /// beside it by the same parent whose standard input is a pipe are taken instead.
    private func followPipe(of holder: PixelHolder, stat: ProcessStat, at now: Double) {
        let known = settledHolders(forNamed: !holder.isInferred)
        if let output = ProcessTree.pipe(of: holder.pid, descriptor: 1) {
            for reader in ProcessTree.processes(reading: output, except: known) {
                add(pid: reader, read: holder.read, origin: .channel(with: holder.pid), at: now)
            }
        } else if ProcessStat.of(pid: holder.pid) == nil {
            followSiblings(of: holder, parent: stat.parent, started: ProcessTree.startSeconds(stat), at: now)
        }
    }

    /// `holder` is gone, and what its standard output was cannot be told: a program its parent
    /// started with it (within `startSlack`) that reads a pipe on its standard input is its
    /// pipeline's next.
    private func followSiblings(of holder: PixelHolder, parent: Int32, started: Double, at now: Double) {
        guard parent > 1 else { return }
        let known = settledHolders(forNamed: !holder.isInferred)
        for sibling in ProcessTree.children(of: parent) where !known.contains(sibling) {
            guard let other = ProcessStat.of(pid: sibling), abs(ProcessTree.startSeconds(other) - started) <= Self.startSlack,
                  ProcessTree.pipe(of: sibling, descriptor: 0) != nil else { continue }
            add(pid: sibling, read: holder.read, origin: .channel(with: holder.pid), at: now)
        }
    }

    /// One look at a holder: files it holds open for writing (held now), its children and the
    /// processes sharing its pipes (holders now).
    private func lookAt(_ holder: PixelHolder, closely: Bool, now: Double) -> [FollowedPixels] {
        let pid = holder.pid
        guard let stat = ProcessStat.of(pid: pid), stat.startTime == holder.startTime else {
            return exited(pid, at: now)
        }
        var writing = Set<FileKey>()
        for file in ProcessDetails.openFiles(of: pid, limit: 256) where file.access != .read {
            guard !own.contains(BytePath(bytes: file.path)), let opened = HeldFile.open(descriptor: file.descriptor, of: pid) else {
                continue
            }
            let key = FileKey(device: opened.device, inode: opened.inode)
            writing.insert(key)
            if files.hold(opened, writer: pid, path: BytePath(bytes: file.path), at: now) {
                if let parent = BytePath(bytes: file.path).parent, file.path.first == UInt8(ascii: "/") { watch(parent, for: pid) }
                // Held from other programs' opens while it may be a screenshot: an image's name,
                // or an image's first bytes (not its log, nor the terminal it writes to).
                if ScreenshotFileClassifier.looksLikeImage(BytePath(bytes: file.path).lastComponent)
                    || ImageSignature.isImage(opened.head(ImageSignature.length)) {
                    openers?.hold(opened, writer: pid, at: now)
                }
                log.verbose("\(holder.program) (pid \(pid)) writes \(BytePath(bytes: file.path)): held until it is complete")
            }
        }
        // What it held open before and no longer does is complete.
        let found = files.completeAll(writtenBy: pid, except: writing).compactMap { complete($0) }
        // A program it started after the read got the pixels from it (`scrot -e 'mv $f …'`); one
        // started before did not.
        followChildren(of: holder, at: now)
        // The next program of its pipeline: its standard output is a pipe, and the program whose
        // standard input is that pipe reads what it wrote (`import png:- | cat > f`). Only that:
        // a pipe every program of a session inherits (a launcher's, a log's) hands nothing on.
        if closely, now >= nextScan[pid] ?? 0 {
            nextScan[pid] = now + Self.scanInterval
            followPipe(of: holder, stat: stat, at: now)
        }
        return found
    }

    /// A held file complete (or so its writer says): handed on as an image, held again for a
    /// writer still at it, or dropped — and then no longer held from other programs' opens.
    private func complete(_ entry: HeldFiles.Entry) -> FollowedPixels? {
        let followed = decide(entry)
        if followed == nil, files.entry(device: entry.file.device, inode: entry.file.inode) == nil {
            openers?.release(entry.file)
        }
        return followed
    }

    private func decide(_ entry: HeldFiles.Entry) -> FollowedPixels? {
        guard let holder = holders.holder(entry.writer) else { return nil }
        let path = entry.file.currentPath ?? entry.firstPath
        let alive = holder.exitedAt == nil
        let links = entry.file.identity?.links ?? 0
        // Deleted (a temporary file: ImageMagick's pixel cache), or not linked yet (an O_TMPFILE
        // before its linkat): nothing can open it by a name. Held while its writer lives, in case
        // it gets one; dropped after.
        if links == 0 {
            if alive { _ = files.hold(entry.file, writer: entry.writer, path: entry.firstPath, at: entry.heldAt) }
            return nil
        }
        // A name that is no image's (x.bin, a tool's temporary file) waits for its writer's
        // exit: a temporary file is gone by then, an output renamed into place (or not).
        if alive, !ScreenshotFileClassifier.looksLikeImage(path.lastComponent) {
            _ = files.hold(entry.file, writer: entry.writer, path: entry.firstPath, at: entry.heldAt)
            return nil
        }
        if own.contains(path) { return nil }
        let head = entry.file.head(ImageSignature.length)
        if head.isEmpty, alive {
            // Opened and closed before anything was written (a program checking it can write
            // there): held again, its real write is still to come.
            _ = files.hold(entry.file, writer: entry.writer, path: entry.firstPath, at: entry.heldAt)
            return nil
        }
        // Its log, the terminal output it was started with: no image, nothing to guard.
        guard ImageSignature.isImage(head) else {
            log.verbose("\(holder.program) (pid \(holder.pid)) wrote \(path), which is no image")
            return nil
        }
        log.verbose("\(holder.program) (pid \(holder.pid)) wrote \(path)")
        return .file(path, held: entry.file, read: holder.read, link: holder.link, screen: holders.screen(of: holder.read))
    }

    /// A file closed, moved or linked into a followed folder, not held: a holder named it, or it
    /// is an image in a holder's working folder (or a folder it named) written while it ran, or
    /// as it exited (weak: anyone may write there).
    private func arrived(_ path: BytePath, identity: FileIdentity, now: Double) -> [FollowedPixels] {
        guard let held = HeldFile.open(path, expecting: identity), ImageSignature.isImage(held.head(ImageSignature.length)) else {
            return []
        }
        for (pid, paths) in named where namespaces[pid] == nil && paths.contains(path) {
            guard let holder = holders.holder(pid) else { continue }
            return [.file(path, held: held, read: holder.read, link: holder.link, screen: holders.screen(of: holder.read))]
        }
        guard let parent = path.parent else { return [] }
        let besideANamedImage = { (pid: Int32) in
            self.namedStems[pid]?.contains { path.bytes.count > $0.bytes.count && path.bytes.starts(with: $0.bytes) } ?? false
        }
        for pid in Set(workingFolders.keys).union(namedStems.keys)
        where workingFolders[pid]?.contains(parent) == true || besideANamedImage(pid) {
            guard let holder = holders.holder(pid), holder.exitedAt.map({ now - $0 < PixelHolders.afterExit }) ?? true,
                  seconds(identity.modified) >= holder.read.time.wall - 1 else { continue }
            return [.file(path, held: held, read: holder.read, link: .folder, screen: holders.screen(of: holder.read))]
        }
        return []
    }

    // MARK: folders

    private func watch(_ folder: BytePath, for pid: Int32) {
        guard let inotify, !(folders[pid]?.contains(folder) ?? false) else { return }
        if watched[folder] == nil {
            guard watched.count < Self.maximumFolders else { return }
            do throws(SystemError) {
                try inotify.watch(folder, mask: IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE)
            } catch {
                return
            }
        }
        watched[folder, default: 0] += 1
        folders[pid, default: []].insert(folder)
    }

    /// Watches where people and programs save what they make (the home folder and its usual
    /// folders, the temporary folder): a file made there wakes a look at every holder at once.
    private func watchCommonFolders() {
        guard !commonWatched else { return }
        commonWatched = true
        var places = ["/tmp"]
        if let temporary = getenv("TMPDIR").map({ String(cString: $0) }), temporary.hasPrefix("/") { places.append(temporary) }
        if let home = UserFolders.home() {
            places += [home] + ["Desktop", "Documents", "Downloads", "Pictures", "Pictures/Screenshots", "Videos"].map { home + "/" + $0 }
        }
        for place in places where FileIdentity.of(path: BytePath(place)).map({ $0.mode & S_IFMT == S_IFDIR }) ?? false {
            watch(BytePath(place), for: Self.commonWatcher)
        }
    }

    private func forget(_ pid: Int32) {
        for folder in folders.removeValue(forKey: pid) ?? [] {
            guard let count = watched[folder] else { continue }
            if count > 1 {
                watched[folder] = count - 1
            } else {
                watched[folder] = nil
                inotify?.unwatch(folder)
            }
        }
        named[pid] = nil
        outputs[pid] = nil
        namedFolders[pid] = nil
        namedStems[pid] = nil
        namespaces[pid] = nil
        workingFolders[pid] = nil
        nextScan[pid] = nil
        nextLook[pid] = nil
        if let fd = exits.removeValue(forKey: pid) { close(fd) }
        for file in files.forget(writtenBy: pid) { openers?.release(file) }
        openers?.releaseNames(writer: pid)
    }

    // MARK: helpers

    /// The regular files of `folders` (a few folders, a bounded number of entries each).
    static func files(in folders: Set<BytePath>) -> Set<BytePath> {
        var found: Set<BytePath> = []
        for folder in folders.sorted(by: { $0.bytes.lexicographicallyPrecedes($1.bytes) }).prefix(8) {
            guard let directory = folder.withCString({ opendir($0) }) else { continue }
            defer { closedir(directory) }
            var entries = 0
            while entries < 1024, let entry = readdir(directory) {
                entries += 1
                guard entry.pointee.d_type == UInt8(DT_REG) || entry.pointee.d_type == UInt8(DT_UNKNOWN) else { continue }
                let name = withUnsafeBytes(of: entry.pointee.d_name) { BytePath(bytes: $0.prefix { $0 != 0 }) }
                found.insert(folder.appending(name))
            }
        }
        return found
    }

    /// The moment of `read` on the boot clock, which processes' start times use.
    private func bootTime(of read: ScreenReadRecord, now: Double) -> Double {
        ProcessTree.secondsSinceBoot() - (now - read.time.monotonic)
    }


    /// The paths a process names on its command line, in its arguments and in the words of a
    /// command it was given to run (`scrot -e 'convert $f -resize 50% ~/small.png'`), made
    /// absolute against its working folder: the folders that exist, and the files (existing or
    /// not) in a folder that exists. ImageMagick's format prefix is taken off (`png:x.bin`); an
    /// option (`-window`) or a bare word without a dot or slash (`root`) names nothing.
    static func namedPaths(_ details: ProcessDetails, folder: BytePath?) -> (files: Set<BytePath>, folders: Set<BytePath>) {
        var files = Set<BytePath>(), folders = Set<BytePath>()
        let isFolder = { (path: BytePath) in FileIdentity.of(path: path).map { $0.mode & S_IFMT == S_IFDIR } ?? false }
        for argument in details.arguments.dropFirst() {
            for piece in argument.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "'" || $0 == "\"" || $0 == "=" }) {
                var word = String(piece)
                if let colon = word.firstIndex(of: ":"), !word.hasPrefix("/"), word[..<colon].count <= 8,
                   word[..<colon].allSatisfy({ $0.isLetter || $0.isNumber }) {
                    word = String(word[word.index(after: colon)...])
                }
                guard !word.isEmpty, !word.hasPrefix("-"), word.contains(".") || word.contains("/"), word != "." && word != ".." else {
                    continue
                }
                let path = absolute(BytePath(word), in: folder)
                guard path.bytes.first == UInt8(ascii: "/"), path.bytes.count < 4096 else { continue }
                if isFolder(path) {
                    folders.insert(path)
                } else if let parent = path.parent, isFolder(parent) {
                    files.insert(path)
                }
                if files.count + folders.count >= 32 { return (files, folders) }
            }
        }
        return (files, folders)
    }

    /// `pid`'s parent, grandparent… up to the first process of another session or init.
    static func ancestry(of pid: Int32) -> [Int32] {
        var chain: [Int32] = []
        var current = ProcessStat.of(pid: pid)
        while let stat = current, stat.parent > 1, chain.count < 16 {
            chain.append(stat.parent)
            current = ProcessStat.of(pid: stat.parent)
        }
        return chain
    }

    private static func absolute(_ path: BytePath, in folder: BytePath?) -> BytePath {
        if path.bytes.first == UInt8(ascii: "/") { return path }
        if path.bytes.starts(with: Array("~/".utf8)), let home = UserFolders.home() {
            return BytePath(home).appending(BytePath(bytes: path.bytes.dropFirst(2)))
        }
        guard let folder else { return path }
        var relative = path.bytes
        while relative.starts(with: Array("./".utf8)) { relative.removeFirst(2) }
        return folder.appending(BytePath(bytes: relative))
    }
}
