package dev.tablewright.fakes.net;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The proxy forwards bytes both ways; severed, it cuts the open connection and closes new ones; restored, it forwards again. */
class SeverableTcpProxyTest {

    ServerSocket echo;
    SeverableTcpProxy proxy;

    @BeforeEach
    void start() throws IOException {
        echo = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().start(() -> {
            while (!echo.isClosed()) {
                try {
                    Socket s = echo.accept();
                    Thread.ofVirtual().start(() -> {
                        try (s) {
                            s.getInputStream().transferTo(s.getOutputStream());
                        } catch (IOException ended) {
                            // the client went away
                        }
                    });
                } catch (IOException closed) {
                    return;
                }
            }
        });
        proxy = SeverableTcpProxy.to("127.0.0.1", echo.getLocalPort());
    }

    @AfterEach
    void stop() throws IOException {
        proxy.close();
        echo.close();
    }

    private Socket connect() throws IOException {
        Socket s = new Socket(InetAddress.getLoopbackAddress(), proxy.port());
        s.setSoTimeout(10_000); // a bound for a broken proxy, never reached when it works
        return s;
    }

    /** Sends {@code text} and reads as many bytes back; -1 as soon as the connection ends instead. */
    private static int roundTrip(Socket s, String text) {
        try {
            s.getOutputStream().write(text.getBytes(StandardCharsets.UTF_8));
            s.getOutputStream().flush();
            InputStream in = s.getInputStream();
            byte[] back = new byte[text.length()];
            for (int read = 0; read < back.length; ) {
                int n = in.read(back, read, back.length - read);
                if (n < 0) {
                    return -1;
                }
                read += n;
            }
            assertEquals(text, new String(back, StandardCharsets.UTF_8));
            return back.length;
        } catch (IOException cut) {
            return -1;
        }
    }

    @Test
    void forwardsThenCutsAndRefusesWhileSeveredThenForwardsAgain() throws IOException {
        try (Socket open = connect()) {
            assertEquals(4, roundTrip(open, "ping"));
            proxy.sever();
            assertEquals(-1, roundTrip(open, "lost"), "the open connection is cut");
            try (Socket refused = connect()) {
                assertEquals(-1, roundTrip(refused, "none"), "a new connection is closed on accept");
            }
        }
        assertEquals(1, proxy.refusedConnections());

        proxy.restore();
        try (Socket again = connect()) {
            assertEquals(5, roundTrip(again, "again"));
        }
    }
}
