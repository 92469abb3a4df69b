package dev.weft.demo.game;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/** Reads a summary file ({@link RunSummary#toJson()}, or a comparison's object of them) with Jackson. */
final class Summaries {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private Summaries() {}

    @SuppressWarnings("unchecked")
    static Map<String, Object> read(Path file) throws IOException {
        return MAPPER.readValue(file.toFile(), Map.class);
    }
}
