package dev.weft.demo.game;

import java.util.Locale;
import java.util.Map;

/**
 * What chunk streaming did in a run ({@link ChunkStreaming}); all zero with {@code --streaming off}.
 *
 * @param chunksLoaded        chunks loaded in the run, the start area included
 * @param startAreaChunks     of those, the chunks around the camera's start, loaded behind the loading screen
 * @param startAreaWaitMs     how long the loading screen stayed up for the start area after the warm-up (0:
 *                            the warm-up covered it)
 * @param chunksUnloaded      chunks unloaded during gameplay (behind the camera); the final clean-up is not counted
 * @param chunksCancelled     of those, chunks still loading: their jobs were cancelled
 * @param framesStreaming     gameplay frames during which some chunk was loading
 * @param overBudgetStreaming those of them longer than {@link RunSummary#BUDGET_MS}
 * @param gpuObjectsLeaked    chunk textures and meshes still on the GPU after streaming stopped (0 expected)
 * @param assetsLeaked        assets still held by the chunks' asset manager after streaming stopped (0 expected)
 * @param nativeLeaked        decoded textures whose native memory was not freed (0 expected)
 */
record StreamingReport(boolean on, long chunksLoaded, long startAreaChunks, double startAreaWaitMs, long chunksUnloaded,
                       long chunksCancelled, long bytesStreamed,
                       int framesStreaming, int overBudgetStreaming, long gpuObjectsUploaded, long gpuObjectsLeaked,
                       int assetsLeaked, int nativeLeaked, long chunkFailures) {

    static final StreamingReport OFF = new StreamingReport(false, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

    /** Adds the summary's streaming keys to {@code m}, in this order. */
    void putJson(Map<String, Object> m) {
        m.put("streaming", on);
        m.put("chunks_loaded", chunksLoaded);
        m.put("chunks_start_area", startAreaChunks);
        m.put("start_area_wait_ms", Math.round(startAreaWaitMs * 10) / 10.0);
        m.put("chunks_unloaded", chunksUnloaded);
        m.put("frames_streaming", framesStreaming);
        m.put("over_budget_streaming", overBudgetStreaming);
        m.put("bytes_streamed", bytesStreamed);
        m.put("chunks_cancelled", chunksCancelled);
        m.put("chunk_failures", chunkFailures);
        m.put("chunk_gpu_objects_uploaded", gpuObjectsUploaded);
        m.put("chunk_gpu_objects_leaked", gpuObjectsLeaked);
        m.put("chunk_assets_leaked", assetsLeaked);
        m.put("chunk_native_memory_leaked", nativeLeaked);
    }

    /** The summary's last line. */
    String line() {
        if (!on) {
            return "weft-demo: streaming off: chunks loaded 0, unloaded 0, 0 bytes streamed";
        }
        return String.format(Locale.ROOT, "weft-demo: streaming on: chunks loaded %d (%d of them the start area,"
                        + " behind the loading screen: %.0f ms past the warm-up), unloaded %d (%d cancelled while"
                        + " loading), %s streamed; %d frames streaming, %d of them over budget; leaked: %d GPU"
                        + " objects, %d assets, %d native buffers", chunksLoaded, startAreaChunks, startAreaWaitMs, chunksUnloaded, chunksCancelled,
                LoadProgressPrinter.formatBytes(bytesStreamed), framesStreaming, overBudgetStreaming, gpuObjectsLeaked,
                assetsLeaked, nativeLeaked);
    }
}
