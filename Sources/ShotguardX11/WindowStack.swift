// The stacking order of the windows on screen, as the server draws them: managed clients and
// override-redirect windows together, each with the child of the root that shows it.
import CX11
import ShotguardImaging

extension Display {
    /// How many levels above a client its top-level window is looked for. Window managers put
    /// a client one or two levels under the root (openbox: one); a client deeper than this is
    /// listed on top, as hiding nothing.
    static let maximumFrameDepth = 8

    /// Top-level clients in stacking order, bottom first, each with its top-level window.
    ///
    /// Under an EWMH window manager the clients are `_NET_CLIENT_LIST_STACKING`; the viewable
    /// override-redirect children of the root (menus, tooltips, notifications) join them, and
    /// all take the place of their top-level window among the root's children, which is the
    /// order the server draws them in (a notification may lie under a window raised after
    /// it). Clients of one top-level window keep the list's order. A client whose top-level
    /// window is not found goes on top, with no top-level (it is then taken to hide nothing).
    /// Without a window manager: the client inside each child of the root, in the root's order.
    func stackingOrder() -> [StackEntry] {
        batch {
            guard let tree = children(of: root) else { return [] }
            guard let list = cardinals("_NET_CLIENT_LIST_STACKING", of: root, type: XA_WINDOW),
                  case let managed = PropertyDecoding.windowList(list).map({ Window($0) }), !managed.isEmpty else {
                return clientWindows(in: tree.children)
            }
            return managedStack(managed, rootChildren: tree.children)
        }
    }

    private func managedStack(_ managed: [Window], rootChildren: [Window]) -> [StackEntry] {
        let place = Dictionary(rootChildren.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        // One round trip: what each root child is, and each client's parent.
        let (children, parents) = WindowBatch(self).rootChildrenAndParents(rootChildren, parentsOf: managed)
        let tops = topLevels(of: managed.filter { parents[$0] != nil }, firstParents: parents, rootChildren: Set(rootChildren))
        let frames = Set(tops.values)
        var placed: [(place: Int, order: Int, entry: StackEntry)] = []
        for (order, client) in managed.enumerated() where parents[client] != nil {
            let top = tops[client]
            placed.append((top.flatMap { place[$0] } ?? Int.max, order, StackEntry(client: client, topLevel: top)))
        }
        for window in rootChildren where !frames.contains(window) {
            guard let child = children[window], child.isOverrideRedirect, child.isViewable, let at = place[window] else { continue }
            placed.append((at, 0, StackEntry(client: window, topLevel: window)))
        }
        return placed.sorted { ($0.place, $0.order) < ($1.place, $1.order) }.map(\.entry)
    }

    /// The child of the root that holds each of `windows` (the window itself when it is one),
    /// walking up one level of all of them per round trip, at most `maximumFrameDepth` levels.
    /// `firstParents` is the first level when it was read already; a parent among
    /// `rootChildren` ends the walk a level early. A window that is gone, or too deep, is left out.
    func topLevels(of windows: [Window], firstParents: [Window: Window]? = nil,
                   rootChildren: Set<Window> = []) -> [Window: Window] {
        var found: [Window: Window] = [:]
        // Each window's highest known ancestor, and that ancestor's parent once read.
        var ancestors = Dictionary(windows.map { ($0, $0) }, uniquingKeysWith: { first, _ in first })
        var parents = firstParents ?? WindowBatch(self).parents(of: windows)
        for level in 0..<Self.maximumFrameDepth where !ancestors.isEmpty {
            if level > 0 { parents = WindowBatch(self).parents(of: Array(Set(ancestors.values))) }
            for (window, ancestor) in ancestors {
                guard let parent = parents[ancestor] else {
                    ancestors[window] = nil
                    continue
                }
                if parent == root || parent == 0 {
                    found[window] = ancestor
                    ancestors[window] = nil
                } else if rootChildren.contains(parent) {
                    found[window] = parent
                    ancestors[window] = nil
                } else {
                    ancestors[window] = parent
                }
            }
        }
        return found
    }

    /// The client inside each top-level window: itself when it has `WM_STATE`, `WM_CLASS` or no
    /// children, else the first descendant (at most three levels down) with `WM_STATE`, as a
    /// window manager without EWMH reparents. Each level of all the trees is read in one batch:
    /// without a window manager, a desktop of 50 windows cost 150 round trips one by one.
    func clientWindows(in windows: [Window]) -> [StackEntry] {
        var clues: [Window: ClientClue] = [:]
        var level = windows
        for depth in 0...3 where !level.isEmpty {
            let found = WindowBatch(self).clientClues(level)
            var next: [Window] = []
            for (window, clue) in zip(level, found) {
                clues[window] = clue
                if depth < 3, let children = clue.childrenToSearch { next += children }
            }
            level = next
        }
        func client(in window: Window, depth: Int) -> Window {
            guard depth < 3, let children = clues[window]?.childrenToSearch else { return window }
            for child in children {
                let found = client(in: child, depth: depth + 1)
                if found != child || clues[found]?.hasState == true { return found }
            }
            return window
        }
        return windows.map { StackEntry(client: client(in: $0, depth: 0), topLevel: $0) }
    }
}
