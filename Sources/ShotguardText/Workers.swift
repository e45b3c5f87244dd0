// Runs numbered jobs on a few threads of our own: OCR is parallelised by region, not by OpenMP.
import Glibc
import Synchronization

enum Workers {
    /// The nice value of background workers: a tenth of a normal thread's share of a busy core
    /// (CFS weights 110 and 1024). Not 19 (a seventieth): a reading ahead that a screenshot
    /// stops still ends the line each worker has begun, and the screenshot's pass waits for it.
    static let backgroundNice: Int32 = 10

    /// Calls `body(worker, job)` for every job in `0..<jobs`, on `workers` threads (the calling
    /// thread is one of them), each taking the next job when it is done with one; returns when
    /// every job has ended. A thread that cannot be started leaves its share to the others.
    ///
    /// `background`: the jobs run only on threads of their own at `backgroundNice`, which give
    /// way to busier threads (of every program, or only of the agent's own session where the
    /// kernel groups a session's threads, as autogroup does); the calling thread waits. A
    /// thread's nice value cannot be raised again without privilege, so the caller's own is
    /// never lowered.
    static func run(jobs: Int, workers: Int, background: Bool = false,
                    _ body: @escaping @Sendable (_ worker: Int, _ job: Int) -> Void) {
        guard jobs > 0 else { return }
        let shared = Shared(jobs: jobs, body: body)
        var threads: [pthread_t] = []
        let first = background ? 0 : 1
        for worker in first..<max(1, min(workers, jobs)) {
            var thread = pthread_t()
            let context = Unmanaged.passRetained(Start(shared: shared, worker: worker, nice: background ? backgroundNice : nil)).toOpaque()
            if pthread_create(&thread, nil, { context in
                let start = Unmanaged<Start>.fromOpaque(context!).takeRetainedValue()
                // On Linux the nice value is the thread's own: `who` 0 is the calling thread.
                if let nice = start.nice { _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, nice) }
                start.shared.work(start.worker)
                return nil
            }, context) == 0 {
                threads.append(thread)
            } else {
                Unmanaged<Start>.fromOpaque(context).release()
            }
        }
        // Not started in the background: this thread does the work (and leaves none undone).
        if !background || threads.isEmpty { shared.work(0) }
        for thread in threads { pthread_join(thread, nil) }
    }

    private final class Shared: Sendable {
        let jobs: Int
        let next = Atomic<Int>(0)
        let body: @Sendable (Int, Int) -> Void

        init(jobs: Int, body: @escaping @Sendable (Int, Int) -> Void) {
            self.jobs = jobs
            self.body = body
        }

        func work(_ worker: Int) {
            while true {
                let job = next.add(1, ordering: .relaxed).oldValue
                guard job < jobs else { return }
                body(worker, job)
            }
        }
    }

    private final class Start: Sendable {
        let shared: Shared
        let worker: Int
        /// The nice value the thread takes first (background workers), or nil.
        let nice: Int32?

        init(shared: Shared, worker: Int, nice: Int32?) {
            self.shared = shared
            self.worker = worker
            self.nice = nice
        }
    }
}
