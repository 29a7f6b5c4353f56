package io.lockstep.core.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code Expect: 100-continue} on loads, against a raw-socket FE (the JDK server always answers 100 itself):
 * an FE that redirects at once receives no body bytes; a node that stays silent gets no body either, and the
 * request fails over to the next load URL.
 */
class ExpectContinueTest extends ClientTestSupport {
    private final ExecutorService rawFe = Executors.newSingleThreadExecutor();

    @AfterEach
    void stopRawFe() {
        rawFe.shutdownNow();
    }

    @Test
    void redirectBeforeContinueSendsTheBodyOnlyToTheBeAndDropsTheConnection() throws Exception {
        byte[] body = ("[" + "{\"id\":1},".repeat(2_000) + "{\"id\":2}]").getBytes(StandardCharsets.UTF_8);
        be.on(LOAD, ok());
        try (ServerSocket listener = new ServerSocket(0, 2, InetAddress.getLoopbackAddress())) {
            CountDownLatch loadsDone = new CountDownLatch(1);
            Future<List<Integer>> bodyBytesPerConnection = rawFe.submit(() -> {
                List<Socket> sockets = new ArrayList<>();
                try {
                    for (int i = 0; i < 2; i++) {
                        Socket socket = listener.accept();
                        sockets.add(socket);
                        String head = readHead(socket.getInputStream());
                        assertThat(head.toLowerCase(Locale.ROOT)).contains("expect: 100-continue");
                        write(socket.getOutputStream(), "HTTP/1.1 307 Temporary Redirect\r\nLocation: http://"
                                + be.address() + LOAD + "\r\nContent-Length: 0\r\n\r\n");
                    }
                    loadsDone.await(10, TimeUnit.SECONDS);
                    // a body sent after the 307 would sit in these sockets' buffers by now (loopback)
                    List<Integer> available = new ArrayList<>();
                    for (Socket socket : sockets) {
                        available.add(socket.getInputStream().available());
                    }
                    return available;
                } finally {
                    for (Socket socket : sockets) {
                        socket.close();
                    }
                }
            });
            client.close();
            client = newClient("127.0.0.1:" + listener.getLocalPort());

            client.load(single("l1"), "orders", body, JSON_PROPS);
            client.load(single("l1"), "orders", body, JSON_PROPS);
            loadsDone.countDown();

            assertThat(bodyBytesPerConnection.get(10, TimeUnit.SECONDS))
                    .as("each load opened its own FE connection and sent it no body").containsExactly(0, 0);
            assertThat(be.requests(LOAD)).hasSize(2)
                    .allSatisfy(r -> assertThat(r.body()).isEqualTo(body));
        }
    }

    @Test
    void aSilentLoadUrlGetsNoBodyAndTheLoadFailsOverToTheNextOne() throws Exception {
        fe.on(LOAD, ok());
        try (SilentNode silent = new SilentNode()) {
            client.close();
            client = new StarRocksTransactionClient(config(silent.address() + ";" + fe.address())
                    .waitForContinueTimeoutMs(200).build(), metrics, ticker);

            LoadReply reply = client.load(single("l1"), "orders", BODY, JSON_PROPS);

            assertThat(reply.attempts()).as("failed over inside one attempt").isEqualTo(1);
            assertThat(fe.requests(LOAD)).hasSize(1).allSatisfy(r -> assertThat(r.body()).isEqualTo(BODY));
            assertThat(silent.headsReceived()).isEqualTo(1);
            assertThat(silent.bodyBytesReceived()).as("the silent node never got the body").isZero();
        }
    }

    @Test
    void aLoadUrlThatNeverAnswersABeginIsLeftAfterOneSocketTimeout() throws Exception {
        fe.on(BEGIN, ok());
        try (SilentNode silent = new SilentNode()) {
            client.close();
            client = new StarRocksTransactionClient(config(silent.address() + ";" + fe.address())
                    .socketTimeoutMs(300).build(), metrics, ticker);

            assertThat(client.begin(single("l1"), 600)).isEqualTo(42);

            assertThat(silent.headsReceived()).as("one timed-out attempt at the silent FE").isEqualTo(1);
            assertThat(fe.requests(BEGIN)).as("the retry went to the next load URL").hasSize(1);
            assertThat(retries(FailureClass.CONNECTION)).isEqualTo(1);
        }
    }

    /** A node that accepts connections and reads request heads, then never answers (a hung FE). */
    private final class SilentNode implements AutoCloseable {
        private final ServerSocket listener = new ServerSocket(0, 8, InetAddress.getLoopbackAddress());
        private final List<Socket> sockets = new java.util.concurrent.CopyOnWriteArrayList<>();
        private final java.util.concurrent.atomic.AtomicInteger heads = new java.util.concurrent.atomic.AtomicInteger();

        SilentNode() throws IOException {
            rawFe.submit(() -> {
                while (!listener.isClosed()) {
                    try {
                        Socket socket = listener.accept();
                        sockets.add(socket);
                        readHead(socket.getInputStream());
                        heads.incrementAndGet();
                    } catch (IOException e) {
                        return null; // closed
                    }
                }
                return null;
            });
        }

        String address() {
            return "127.0.0.1:" + listener.getLocalPort();
        }

        int headsReceived() {
            return heads.get();
        }

        int bodyBytesReceived() throws IOException {
            int bytes = 0;
            for (Socket socket : sockets) {
                bytes += socket.getInputStream().available();
            }
            return bytes;
        }

        @Override
        public void close() throws IOException {
            listener.close();
            for (Socket socket : sockets) {
                socket.close();
            }
        }
    }

    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        byte[] end = "\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        while (matched < end.length) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("connection closed inside the request head");
            }
            head.write(b);
            matched = b == end[matched] ? matched + 1 : (b == end[0] ? 1 : 0);
        }
        return head.toString(StandardCharsets.US_ASCII);
    }

    private static void write(OutputStream out, String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }
}
