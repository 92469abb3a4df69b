/**
 * Building blocks of the scheduler that are not API: the Chase–Lev work-stealing deque, the injection
 * queue's one-consumer turn, their cache-line padding, the JDK virtual-thread hooks
 * ({@code FiberSupport}, the one place that reaches into {@code java.lang}) and CPU pinning. The module
 * {@code dev.weft} neither exports nor opens this package, so its public classes are public only to
 * {@code dev.weft}. Nothing here may know about jobs, workers or the job system: each class is a
 * self-contained structure with its own tests (Lincheck, jcstress, stress).
 */
package dev.weft.internal;
