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

    requires org.jctools.core;
    // JCTools 4.0.5's queues use sun.misc.Unsafe but only `requires static` jdk.unsupported, which the
    // module system then leaves out of the graph (NoClassDefFoundError: sun/misc/Unsafe): bring it in.
    requires jdk.unsupported;
    requires jdk.jfr;
}
