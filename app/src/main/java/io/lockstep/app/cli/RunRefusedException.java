package io.lockstep.app.cli;

import java.util.List;

/**
 * A pre-flight step of {@code lockstep run} refused to start the job ({@link RunPreflight}): the command prints each
 * problem as one {@code lockstep run: } line and exits 1. No problems means the step was interrupted (nothing is
 * printed; the interrupt flag is set again).
 */
final class RunRefusedException extends Exception {

    private static final long serialVersionUID = 1L;

    private final List<String> problems;

    /** @param problems one line each, without the command's prefix; empty when interrupted */
    RunRefusedException(List<String> problems) {
        super(String.join("; ", problems));
        this.problems = List.copyOf(problems);
    }

    /** @return the problems, one line each */
    List<String> problems() {
        return problems;
    }
}
