package dev.weft;

import java.util.concurrent.CancellationException;

/**
 * A job was cancelled: thrown by {@link JobHandle#join()} of a cancelled job, and inside a running job
 * by {@link Jobs#checkCancelled()} or by a wait that was interrupted by cancellation (the job's own
 * {@link JobHandle#cancel()}, its {@link JobGroup#cancel()}, or {@link JobSystem#shutdownNow()}).
 */
public class JobCancelledException extends CancellationException {
    private static final long serialVersionUID = 1L;

    JobCancelledException(String message) {
        super(message);
    }
}
