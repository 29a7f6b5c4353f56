package io.lockstep.app.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

/** One execution of the {@code lockstep} command line in this JVM: its exit code and what it printed. */
record CliRun(int exitCode, String out, String err) {

    static CliRun of(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        var cli = LockstepMain.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int code = cli.execute(args);
        return new CliRun(code, out.toString(), err.toString());
    }
}
