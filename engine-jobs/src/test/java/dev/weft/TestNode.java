package dev.weft;

/** A bare job node for deque tests: a value, no work. */
final class TestNode extends JobNode {
    int value;

    TestNode(int value) {
        this.value = value;
    }

    @Override
    void execute() {
    }

    @Override
    void complete(Scheduler s, Throwable failure, boolean cancelled, Fiber on) {
    }

    @Override
    String defaultName() {
        return "test node " + value;
    }
}
