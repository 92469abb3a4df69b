package dev.weft.demo.game;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Checks, before a run, the files it writes at its end ({@code --summary}, {@code --trace},
 * {@code --screenshot}): a directory or an uncreatable parent would otherwise fail only after the whole
 * run, with its results lost. Writing still creates missing parent directories; this only makes sure it
 * can. Looks, never writes.
 */
final class OutputFiles {
    private OutputFiles() {}

    /** @throws IllegalArgumentException naming {@code option} and the reason, if {@code file} cannot be written */
    static void check(String option, Path file) {
        String problem = problem(option, file);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
    }

    /** Why {@code file} cannot be written, or null if it can as far as one can tell without writing (or is null). */
    static String problem(String option, Path file) {
        if (file == null) {
            return null;
        }
        String named = option + " " + file;
        if (Files.isDirectory(file)) {
            return named + " is a directory: name a file in it";
        }
        if (Files.exists(file)) {
            return Files.isWritable(file) ? null : named + " exists and cannot be written";
        }
        Path dir = file.toAbsolutePath().getParent();
        Path existing = dir;
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing == null) {
            return null;                                 // no root to look at; the write will say
        }
        if (!Files.isDirectory(existing)) {
            return named + ": cannot create its directory " + dir + ": " + existing + " is not a directory";
        }
        if (!Files.isWritable(existing)) {
            return named + ": " + (existing.equals(dir) ? "directory " + dir + " cannot be written"
                    : "cannot create its directory " + dir + ": " + existing + " cannot be written");
        }
        return null;
    }
}
