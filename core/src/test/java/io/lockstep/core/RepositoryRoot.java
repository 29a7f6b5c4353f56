package io.lockstep.core;

import java.nio.file.Files;
import java.nio.file.Path;

/** Where the repository's checkout lies, for tests that read its sources and docs. */
final class RepositoryRoot {

    private RepositoryRoot() {
    }

    /**
     * @return the nearest directory at or above the module ({@code basedir}, else the working directory) holding both
     *     {@code docs/} and {@code pom.xml}
     * @throws IllegalStateException when there is none (the tests run outside a checkout)
     */
    static Path find() {
        String start = System.getProperty("basedir", System.getProperty("user.dir"));
        for (Path dir = Path.of(start).toAbsolutePath().normalize(); dir != null; dir = dir.getParent()) {
            if (Files.isDirectory(dir.resolve("docs")) && Files.isRegularFile(dir.resolve("pom.xml"))) {
                return dir;
            }
        }
        throw new IllegalStateException("no directory holding docs/ and pom.xml at or above " + start);
    }
}
