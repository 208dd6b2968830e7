package dev.tablewright.localstack.chat;

import java.io.BufferedReader;
import java.io.Console;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** Where the terminal chat reads and writes: the console (secrets not echoed), or plain streams (pipes, tests). */
public interface Terminal {

    /** A line the user typed, or null at end of input. */
    String readLine(String prompt);

    /** A line read without echo where the terminal allows it. */
    String readSecret(String prompt);

    PrintStream out();

    static Terminal system() {
        Console console = System.console();
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        if (console != null) {
            return new Terminal() {
                @Override
                public String readLine(String prompt) {
                    return console.readLine("%s", prompt);
                }

                @Override
                public String readSecret(String prompt) {
                    char[] secret = console.readPassword("%s", prompt);
                    return secret == null ? null : new String(secret);
                }

                @Override
                public PrintStream out() {
                    return out;
                }
            };
        }
        return streams(new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)), out);
    }

    /** Plain streams: secrets are read like any line (the prompt says so). */
    static Terminal streams(BufferedReader in, PrintStream out) {
        return new Terminal() {
            @Override
            public String readLine(String prompt) {
                out.print(prompt);
                out.flush();
                try {
                    return in.readLine();
                } catch (IOException e) {
                    return null;
                }
            }

            @Override
            public String readSecret(String prompt) {
                return readLine(prompt + "(no console: input is visible) ");
            }

            @Override
            public PrintStream out() {
                return out;
            }
        };
    }
}
