package dev.weft.assets;

import dev.weft.JobSystem;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** A fresh two-worker job system per test ({@link Fixture#jobs()}); after each test no fiber is left parked. */
abstract class WithJobSystem {
    JobSystem jobs;

    @BeforeEach
    void startJobSystem() {
        jobs = Fixture.jobs();
    }

    @AfterEach
    void stopJobSystem() {
        Fixture.assertNoFiberParked(jobs);
        jobs.close();
    }
}
