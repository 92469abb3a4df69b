/**
 * jcstress tests that FAIL on the current code: each demonstrates a reported bug. They are left out of
 * the {@code mvn verify} run (its test selector matches {@code dev.weft.jcstress} classes only, not this
 * package); run them with {@code -Dweft.jcstress.tests=dev.weft.jcstress.knownbugs}, and move a test up
 * into {@code dev.weft.jcstress} once its bug is fixed.
 */
package dev.weft.jcstress.knownbugs;
