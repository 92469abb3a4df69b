package dev.weft;

/** A worker's platform thread: the carrier its fibers mount on. */
final class WorkerThread extends Thread {
    final Worker worker;
    final WorkerLocal.Slots workerLocals = new WorkerLocal.Slots(this);   // this thread only

    WorkerThread(Worker worker, String name, long stackSizeBytes) {
        super(null, null, name, stackSizeBytes);
        this.worker = worker;
        setDaemon(true);
    }

    @Override
    public void run() {
        worker.runCarrierLoop();
    }
}
