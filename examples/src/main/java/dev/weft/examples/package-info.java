/**
 * The code the READMEs show, as programs that compile against the current API and run in CI:
 * {@link dev.weft.examples.LwjglLoopExample} (the LWJGL frame loop of {@code demo-game/README.md}) and
 * {@link dev.weft.examples.CompletableFutureExample} ({@code README.md}). The snippet in a README is the
 * text between an example's {@code README snippet} markers, and a test keeps the two the same.
 */
package dev.weft.examples;
