// What RECORD shows of a screen read or a watch on the screen: the values the agent gets.
import ShotguardImaging

/// One client reading pixels from the server, as the server dispatched the request: who asked,
/// which drawable, which rectangle, when. The strongest screenshot signal there is: it comes at
/// the moment of the read, before any file or clipboard change.
public struct ScreenRead: Sendable, Equatable {
    public enum Request: String, Sendable {
        case getImage = "GetImage", shmGetImage = "ShmGetImage"
        /// Core copies from the root or another client's window into a drawable of the reader's:
        /// how browsers share a screen (libwebrtc: into a shared pixmap, read from shared memory).
        case copyArea = "CopyArea", copyPlane = "CopyPlane"
        /// RENDER's Composite from a picture of the root or another client's window (maim, cairo).
        case renderComposite = "RenderComposite"
    }

    public let request: Request
    /// The reading client's resource-id base (RECORD's `id_base`). The server gives it to the
    /// next client once this one ends (`ScreenReadEvent.clientEnded`).
    public let client: UInt32
    /// What was read: for a copy, its source.
    public let drawable: UInt
    /// The rectangle as requested, in the drawable's coordinates.
    public let area: Rect
    /// The server time RECORD stamped on the request (milliseconds, wrapping at 2^32).
    public let serverTime: UInt
    /// `monotonicNow()` when the source read it.
    public let receivedAt: Double
    /// The window whose contents `drawable` holds, when `drawable` is a pixmap a client named
    /// with Composite's `NameWindowPixmap` (a browser sharing one window reads it so); nil
    /// for a window, the root, or any other pixmap.
    public let pixmapWindow: UInt?
    /// The reading client's process id, from X-Resource, asked as the client connected (or at
    /// its first read, for a client that was there before recording began). Nil for a client
    /// over TCP (no local process), on a server without X-Resource 1.2, or when the client had
    /// gone before it could be asked.
    public let processID: Int32?
    /// Whether the server no longer had the reading client when asked which process it is: it
    /// closed its connection first (ImageMagick's `import` reads on a connection it closes at
    /// once). Its process may still run; a client over TCP is never said to have hung up.
    public let readerHungUp: Bool
    /// For a copy: the drawable the pixels went to, and where in it `area`'s corner landed.
    public let destination: CopyDestination?
    /// The resource-id base of the client that made `drawable` (0: the server's own, the root).
    public let drawableClient: UInt32
    /// How many reads this one stands for: the same client's reads of the same pixels that
    /// came together (a program that reads a pixel thousands of times a second to wait on the
    /// server, as x11perf does) are one read, with the first one's time.
    public internal(set) var repeats = 1

    public init(request: Request, client: UInt32, drawable: UInt, area: Rect, serverTime: UInt, receivedAt: Double,
                pixmapWindow: UInt? = nil, processID: Int32? = nil, readerHungUp: Bool = false,
                destination: CopyDestination? = nil, drawableClient: UInt32? = nil) {
        self.request = request
        self.client = client
        self.drawable = drawable
        self.area = area
        self.serverTime = serverTime
        self.receivedAt = receivedAt
        self.pixmapWindow = pixmapWindow
        self.processID = processID
        self.readerHungUp = readerHungUp
        self.destination = destination
        self.drawableClient = drawableClient ?? client
    }

    /// Whether the drawable read is another client's (not the root, not the reader's own).
    public var readsForeignDrawable: Bool { drawableClient != client && drawableClient != 0 }

    /// Whether `later` reads just what this one read, the same way (only its time differs).
    func isRepeated(by later: ScreenRead) -> Bool {
        request == later.request && client == later.client && drawable == later.drawable && area == later.area
            && pixmapWindow == later.pixmapWindow && processID == later.processID && destination == later.destination
            && drawableClient == later.drawableClient
    }
}

/// Where a copy put the pixels it read.
public struct CopyDestination: Sendable, Equatable {
    public let drawable: UInt
    public let x: Int
    public let y: Int

    public init(drawable: UInt, x: Int, y: Int) {
        self.drawable = drawable
        self.x = x
        self.y = y
    }
}

/// A client watching the screen rather than reading it once: from the request that starts it
/// until the one that ends it, or the client's end, it can read what it watches at any time
/// (OBS's window capture reads a named pixmap on the GPU with no further request; GStreamer's
/// ximagesrc reads only after DAMAGE said something changed). A compositing manager's own
/// redirections, pixmaps and damage are never watches.
public struct ScreenWatch: Sendable, Equatable, Hashable {
    public enum Kind: String, Sendable {
        /// A DAMAGE object on the root or another client's window (`DamageCreate`).
        case damage = "DamageCreate"
        /// Composite's redirection of another client's window, or of the root's children.
        case redirect = "RedirectWindow"
        /// A pixmap named for another client's window (`NameWindowPixmap`).
        case namedPixmap = "NameWindowPixmap"
    }

    public let kind: Kind
    public let client: UInt32
    /// What ends it: the DAMAGE object, the redirected window, or the named pixmap.
    public let resource: UInt
    /// The drawable watched: the root, or a window.
    public let drawable: UInt
    public let serverTime: UInt
    public let receivedAt: Double
    public let processID: Int32?

    public init(kind: Kind, client: UInt32, resource: UInt, drawable: UInt, serverTime: UInt, receivedAt: Double,
                processID: Int32? = nil) {
        self.kind = kind
        self.client = client
        self.resource = resource
        self.drawable = drawable
        self.serverTime = serverTime
        self.receivedAt = receivedAt
        self.processID = processID
    }

    /// One watch is told from another by its client, kind and resource.
    public var key: ScreenWatchKey { ScreenWatchKey(client: client, kind: kind, resource: resource) }
}

/// What names one watch while it lives.
public struct ScreenWatchKey: Sendable, Hashable {
    public let client: UInt32
    public let kind: ScreenWatch.Kind
    public let resource: UInt

    public init(client: UInt32, kind: ScreenWatch.Kind, resource: UInt) {
        self.client = client
        self.kind = kind
        self.resource = resource
    }
}

/// What the screen-read source hands over, in the server's order.
public enum ScreenReadEvent: Sendable, Equatable {
    case read(ScreenRead)
    /// A client started watching the screen (a DAMAGE object, a redirection, a named pixmap).
    case watchStarted(ScreenWatch)
    /// A watch ended (its resource freed, or its client became the compositing manager).
    case watchEnded(ScreenWatchKey)
    /// A client that read or watched the screen disconnected. The server may give its
    /// resource-id base to the next client at once (a screenshot tool's base often goes to the
    /// next tool run), so what was learnt of it, its process above all, must be forgotten here;
    /// its watches ended with it. The source forgets its own knowledge (pixmap names, the
    /// process) at this point too.
    case clientEnded(UInt32)
}
