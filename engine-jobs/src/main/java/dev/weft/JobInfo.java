package dev.weft;

/**
 * What {@link JobSystem#shutdownNow()} reports of a job that never ran.
 *
 * @param name     the job's name
 * @param priority its priority
 * @param group    its group's name, or null
 */
public record JobInfo(String name, Priority priority, String group) {
    static JobInfo of(JobNode j) {
        JobGroup g = j.group;
        return new JobInfo(j.name(), Priority.VALUES[j.priority], g == null ? null : g.name());
    }
}
