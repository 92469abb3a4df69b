/**
 * Weft: a fiber-based job system for game engines. The whole API is the package {@code dev.weft};
 * {@code dev.weft.internal} (the JDK virtual-thread hooks, the deques) is neither exported nor opened,
 * so code outside this module cannot reach it.
 *
 * <p>Fibers need one JVM flag: on the module path {@code --add-opens java.base/java.lang=dev.weft}, on
 * the class path {@code --add-opens java.base/java.lang=ALL-UNNAMED}. Without it
 * {@code JobSystem.builder().build()} throws, naming the flag for the way it was loaded.
 */
module dev.weft {
    exports dev.weft;

    // JCTools' VarHandle queues (org.jctools.queues.varhandle); requires org.jctools.core transitively.
    // No sun.misc.Unsafe on Weft's paths, so no jdk.unsupported and no --sun-misc-unsafe-memory-access.
    requires org.jctools.core.jdk11;
    requires jdk.jfr;
}
