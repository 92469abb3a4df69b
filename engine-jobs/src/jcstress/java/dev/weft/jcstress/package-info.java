/**
 * jcstress tests of Weft's lock-free core: one test per guarantee, every outcome listed with a
 * description, anything unlisted forbidden.
 *
 * <p>They run in the {@code integration-test} phase of {@code mvn verify} (exec-maven-plugin runs
 * {@code org.openjdk.jcstress.Main -m quick}, or {@code -m default} with {@code -Dweft.stress=full}).
 * One test by hand: {@code java --add-opens java.base/java.lang=ALL-UNNAMED -cp <test classpath>
 * org.openjdk.jcstress.Main -t DequePopVsStealLastElement}.
 *
 * <p>Element encoding used by the deque tests: elements are the Integers 1, 2, 3, ...; a take that
 * returned null is recorded as 0; "left" is the bit mask ({@code 1 << (element - 1)}) of the elements an
 * arbiter found still in the deque after every actor finished.
 */
package dev.weft.jcstress;
