package io.lockstep.core.client;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A scripted HTTP server standing in for a StarRocks FE or BE in unit tests (JDK {@code HttpServer}, random port).
 * Each path gets a script of replies: requests take them in order and the last one repeats. Every request is
 * recorded with its method, path, query, headers and body.
 */
final class FakeStarRocksServer implements AutoCloseable {

    /** One recorded request. Header names are lower-case. */
    record Request(String method, String path, String query, Map<String, String> headers, byte[] body) {
        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }

        String bodyText() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    /** A scripted reply. */
    interface Reply {
        void send(HttpExchange exchange, Request request) throws IOException;
    }

    private final HttpServer server;
    private final ExecutorService executor = Executors.newFixedThreadPool(4);
    private final Map<String, List<Reply>> scripts = new HashMap<>();
    private final Map<String, Integer> served = new HashMap<>();
    private final List<Request> requests = new CopyOnWriteArrayList<>();

    private FakeStarRocksServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::handle);
        server.setExecutor(executor);
        server.start();
    }

    static FakeStarRocksServer start() throws IOException {
        return new FakeStarRocksServer();
    }

    /** A loopback port nobody listens on (bound, then released): connecting to it is refused. */
    static int refusedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** {@code 127.0.0.1:port}, as written in a load URL. */
    String address() {
        return server.getAddress().getAddress().getHostAddress() + ":" + server.getAddress().getPort();
    }

    /** Scripts the replies for one path (no query); requests take them in order and the last one repeats. */
    synchronized FakeStarRocksServer on(String path, Reply... replies) {
        scripts.put(path, List.of(replies));
        served.put(path, 0);
        return this;
    }

    /** Every request received so far, in arrival order. */
    List<Request> requests() {
        return List.copyOf(requests);
    }

    /** The requests received for one path. */
    List<Request> requests(String path) {
        List<Request> result = new ArrayList<>();
        for (Request request : requests) {
            if (request.path().equals(path)) {
                result.add(request);
            }
        }
        return result;
    }

    /** A 200 reply with a JSON body. */
    static Reply json(String body) {
        return status(200, "application/json", body);
    }

    /** A reply with any status, content type and body. */
    static Reply status(int code, String contentType, String body) {
        return (exchange, request) -> {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", contentType);
            exchange.sendResponseHeaders(code, bytes.length == 0 ? -1 : bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        };
    }

    /**
     * A 307 to {@code targetAddress} (host:port) with the same path and query, like the FE
     * (docs/protocol.md#redirects-failover-and-probes).
     */
    static Reply redirectTo(String targetAddress) {
        return (exchange, request) -> {
            String location = "http://" + targetAddress + request.path()
                    + (request.query() == null ? "" : "?" + request.query());
            exchange.getResponseHeaders().set("Location", location);
            exchange.sendResponseHeaders(307, -1);
            exchange.close();
        };
    }

    /**
     * The reply is lost: headers promise 100 bytes, 5 arrive, then the connection drops (a handler that throws
     * makes the JDK server close the connection at once).
     */
    static Reply dropReply() {
        return (exchange, request) -> {
            exchange.sendResponseHeaders(200, 100);
            OutputStream out = exchange.getResponseBody();
            out.write("{\"Sta".getBytes(StandardCharsets.UTF_8));
            out.flush();
            throw new IOException("reply dropped on purpose");
        };
    }

    /** The server never answers until {@code release} opens (the client's response timeout fires first). */
    static Reply hangUntil(CountDownLatch release) {
        return (exchange, request) -> {
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            throw new IOException("hung reply released");
        };
    }

    private void handle(HttpExchange exchange) throws IOException {
        try {
            Map<String, String> headers = new HashMap<>();
            exchange.getRequestHeaders().forEach((name, values) ->
                    headers.put(name.toLowerCase(Locale.ROOT), values.get(0)));
            byte[] body = exchange.getRequestBody().readAllBytes();
            Request request = new Request(exchange.getRequestMethod(), exchange.getRequestURI().getPath(),
                    exchange.getRequestURI().getRawQuery(), headers, body);
            requests.add(request);
            Reply reply = next(request.path());
            if (reply == null) {
                status(404, "text/plain", "no script for " + request.path()).send(exchange, request);
            } else {
                reply.send(exchange, request);
            }
        } finally {
            exchange.close();
        }
    }

    private synchronized Reply next(String path) {
        List<Reply> script = scripts.get(path);
        if (script == null) {
            return null;
        }
        int index = served.merge(path, 1, Integer::sum) - 1;
        return script.get(Math.min(index, script.size() - 1));
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
