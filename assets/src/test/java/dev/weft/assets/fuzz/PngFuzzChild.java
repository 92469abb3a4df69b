package dev.weft.assets.fuzz;

import dev.weft.assets.PngDecoder;

import dev.weft.JobHandle;
import dev.weft.JobSystem;
import dev.weft.Priority;
import java.io.RandomAccessFile;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.lwjgl.system.Configuration;
import org.lwjgl.system.MemoryUtil;

/**
 * The PNG campaign, run in its own JVM by {@link AssetParserFuzzTest} because stb_image is native code:
 * a crash must not take the test JVM with it. Before each decode the input is written to a memory-mapped
 * file, so after a crash the parent still has the input that did it. LWJGL's debug allocator tracks
 * every native allocation, stb's own included, and after each input the live total must be back at the
 * baseline: a decoder path that leaks is named with its input. A per-input watchdog turns a hang into a
 * finding (exit code 3). Every eighth batch is also decoded concurrently on the fibers of a two-worker
 * Weft job system, and each outcome (including stb's failure reason, a thread-local) must match the
 * sequential one.
 *
 * <p>Arguments: seed, count, findings directory, last-input file, per-input timeout in ms.
 * Prints one {@code SUMMARY} line at the end.
 */
public final class PngFuzzChild {
    private static final int MAX_INPUT_BYTES = 1 << 20;

    private PngFuzzChild() {}

    public static void main(String[] args) throws Exception {
        Configuration.DEBUG_MEMORY_ALLOCATOR.set(true);
        Configuration.DEBUG_MEMORY_ALLOCATOR_INTERNAL.set(true);      // stb's malloc too
        Configuration.DEBUG_MEMORY_ALLOCATOR_FAST.set(true);          // no stack trace per allocation
        long seed = Long.parseLong(args[0]);
        int count = Integer.parseInt(args[1]);
        Findings findings = new Findings(Path.of(args[2]), Mutator.Format.PNG);
        long timeoutMillis = Long.parseLong(args[4]);
        List<Seeds.Named> seeds = Seeds.textures();
        Mutator mutator = new Mutator(Mutator.Format.PNG, seeds.stream().map(Seeds.Named::bytes).toList(), seed);

        try (RandomAccessFile raf = new RandomAccessFile(args[3], "rw");
             FileChannel ch = raf.getChannel();
             JobSystem jobs = JobSystem.builder().name("pngfuzz").workers(2).build()) {
            MappedByteBuffer last = ch.map(FileChannel.MapMode.READ_WRITE, 0, 8 + MAX_INPUT_BYTES);
            for (Seeds.Named s : seeds) {                                // warm-up: LWJGL's lazy allocations
                Oracle.check(Mutator.Format.PNG, s.name(), s.bytes());
            }
            long baseline = liveBytes();
            AtomicLong started = new AtomicLong();
            AtomicLong current = new AtomicLong(-1);
            Thread watchdog = new Thread(() -> {
                for (;;) {
                    try {
                        Thread.sleep(Math.max(10, timeoutMillis / 10));
                    } catch (InterruptedException e) {
                        return;
                    }
                    long t = started.get();
                    if (current.get() >= 0 && t != 0 && System.nanoTime() - t > timeoutMillis * 1_000_000L) {
                        System.out.println("HANG input " + current.get() + " ran over " + timeoutMillis + " ms");
                        System.out.flush();
                        Runtime.getRuntime().halt(3);                  // the parent saves the mapped input
                    }
                }
            }, "png fuzz watchdog");
            watchdog.setDaemon(true);
            watchdog.start();

            long accepted = 0, rejected = 0, tried = 0, compared = 0, leaked = 0, skipped = 0;
            java.util.Map<String, Integer> reasons = new java.util.HashMap<>();
            List<byte[]> batch = new ArrayList<>();
            List<String> outcomes = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                Mutator.Input in = mutator.next();
                if (in.bytes().length > MAX_INPUT_BYTES) {
                    skipped++;
                    continue;
                }
                tried++;
                last.putInt(0, i).putInt(4, in.bytes().length).put(8, in.bytes());
                String name = "fuzz-" + i + ".png";
                current.set(i);
                started.set(System.nanoTime());
                String outcome;
                try {
                    Oracle.Verdict v = Oracle.check(Mutator.Format.PNG, name, in.bytes());
                    if (v == Oracle.Verdict.ACCEPTED) {
                        accepted++;
                    } else {
                        rejected++;
                        String why = outcome(name, in.bytes()).replace(name + ": ", "").replaceAll("[0-9]+", "N");
                        reasons.merge(why.length() > 60 ? why.substring(0, 60) : why, 1, Integer::sum);
                    }
                    outcome = (i & 7) == 0 ? outcome(name, in.bytes()) : null;
                } catch (Oracle.Defect d) {
                    findings.add(d, in, i);
                    outcome = null;
                }
                started.set(0);
                long live = liveBytes();
                if (live != baseline) {
                    findings.add(new Oracle.Defect("native memory leak", (live - baseline) + " bytes of native memory "
                            + "still allocated after decoding (and closing) input " + i, null), in, i);
                    leaked += live - baseline;
                    baseline = live;
                }
                if (outcome != null) {
                    batch.add(in.bytes());
                    outcomes.add(outcome);
                    if (batch.size() == 8) {
                        compared += compareOnFibers(jobs, batch, outcomes, findings, in, i);
                        batch.clear();
                        outcomes.clear();
                    }
                }
            }
            current.set(-1);
            System.out.println("REASONS " + reasons.entrySet().stream()
                    .sorted(java.util.Map.Entry.<String, Integer>comparingByValue().reversed()).limit(12).toList());
            findings.keys().forEach((k, n) -> System.out.println("DEFECT_KIND " + n + " " + k));
            System.out.println("SUMMARY inputs=" + tried + " accepted=" + accepted + " rejected=" + rejected
                    + " skippedOver1MiB=" + skipped + " comparedOnFibers=" + compared + " leakedBytes=" + leaked
                    + " defects=" + findings.total() + " kinds=" + findings.keys());
        }
    }

    /** What a decode did, as text: dimensions and channels, or the exception's message. */
    static String outcome(String name, byte[] png) {
        try (var t = dev.weft.assets.PngDecoder.decode(name, png)) {
            return t.width() + "x" + t.height() + "x" + t.channels() + " " + t.rgba().hashCode();
        } catch (RuntimeException e) {
            return e.getClass().getSimpleName() + ": " + e.getMessage();
        }
    }

    private static int compareOnFibers(JobSystem jobs, List<byte[]> batch, List<String> sequential, Findings findings,
                                       Mutator.Input last, int index) {
        List<JobHandle<String>> hs = new ArrayList<>();
        for (int k = 0; k < batch.size(); k++) {
            byte[] png = batch.get(k);
            int id = k;
            hs.add(jobs.submit(Priority.NORMAL, "decode " + id, () -> outcome("fuzz-b" + id + ".png", png)));
        }
        for (int k = 0; k < hs.size(); k++) {
            String onFiber = hs.get(k).join().replace("fuzz-b" + k + ".png", "");
            String alone = sequential.get(k).replaceAll("fuzz-[0-9]+\\.png", "");
            if (!onFiber.equals(alone)) {
                // stb keeps its failure reason in a thread-local and some failures set none: then the reason
                // read is whatever an earlier decode on that thread (carrier) left. A fresh thread tells.
                String fresh = onFreshThread(batch.get(k));
                String key = fresh.endsWith("no reason given") ? "stale stb failure reason (stb gave none)"
                        : "outcome differs on fibers";
                findings.add(new Oracle.Defect(key, "decoded alone: '" + alone + "', concurrently on Weft fibers: '"
                        + onFiber + "', alone on a fresh thread: '" + fresh + "'", null),
                        new Mutator.Input(batch.get(k), last.seedIndex(), "batch item " + k), index);
            }
        }
        return hs.size();
    }

    private static String onFreshThread(byte[] png) {
        String[] out = new String[1];
        Thread t = new Thread(() -> out[0] = outcome("fresh.png", png).replace("fresh.png", ""));
        t.start();
        try {
            t.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return out[0];
    }

    private static long liveBytes() {
        AtomicLong total = new AtomicLong();
        MemoryUtil.memReport((address, memory, threadId, threadName, stacktrace) -> total.addAndGet(memory));
        return total.get();
    }
}
