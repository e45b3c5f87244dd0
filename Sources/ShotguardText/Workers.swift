// Runs numbered jobs on a few threads of our own: OCR is parallelised by region, not by OpenMP.
import Glibc
import Synchronization

enum Workers {
    /// Calls `body(worker, job)` for every job in `0..<jobs`, on `workers` threads (the calling
    /// thread is one of them), each taking the next job when it is done with one; returns when
    /// every job has ended. A thread that cannot be started leaves its share to the others.
    static func run(jobs: Int, workers: Int, _ body: @escaping @Sendable (_ worker: Int, _ job: Int) -> Void) {
        guard jobs > 0 else { return }
        let shared = Shared(jobs: jobs, body: body)
        var threads: [pthread_t] = []
        for worker in 1..<max(1, min(workers, jobs)) {
            var thread = pthread_t()
            let context = Unmanaged.passRetained(Start(shared: shared, worker: worker)).toOpaque()
            if pthread_create(&thread, nil, { context in
                let start = Unmanaged<Start>.fromOpaque(context!).takeRetainedValue()
                start.shared.work(start.worker)
                return nil
            }, context) == 0 {
                threads.append(thread)
            } else {
                Unmanaged<Start>.fromOpaque(context).release()
            }
        }
        shared.work(0)
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

        init(shared: Shared, worker: Int) {
            self.shared = shared
            self.worker = worker
        }
    }
}
