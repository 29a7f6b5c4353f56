package io.lockstep.emulator.fault;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP forwarder in front of one address (e.g. the emulator's FE port) that a test can cut, for faults the server
 * itself cannot show: {@link #cut()} closes the listening socket and every open connection, so from then on every
 * request to it fails as to an unreachable FE (connection refused). Daemon threads, one per direction per connection.
 * Thread-safe.
 */
public final class TcpForwarder implements AutoCloseable {
    private final ServerSocket server;
    private final String targetHost;
    private final int targetPort;
    /** Every connection's two sockets; guards the cut against an accept in progress. */
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    /** Set once, under the {@code sockets} monitor; read by the accept thread. */
    private volatile boolean cut;

    /**
     * Listens on a free loopback port and forwards every connection to {@code targetHost:targetPort}.
     *
     * @throws IOException if no local port can be bound
     */
    public TcpForwarder(String targetHost, int targetPort) throws IOException {
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        Thread accept = new Thread(this::acceptLoop, "tcp-forwarder-" + server.getLocalPort());
        accept.setDaemon(true);
        accept.start();
    }

    /**
     * In front of an {@code http://host:port} URL.
     *
     * @throws IOException if no local port can be bound
     */
    public static TcpForwarder inFrontOf(String url) throws IOException {
        java.net.URI uri = java.net.URI.create(url);
        return new TcpForwarder(uri.getHost(), uri.getPort());
    }

    /** {@code 127.0.0.1:port} of the forwarder, for {@code load-url}. */
    public String address() {
        return "127.0.0.1:" + server.getLocalPort();
    }

    /**
     * Makes the forwarded address unreachable: closes the listener and every connection, also one accepted while
     * this runs.
     */
    public void cut() {
        synchronized (sockets) {
            cut = true;
            closeQuietly(server);
            sockets.forEach(TcpForwarder::closeQuietly);
        }
    }

    private void acceptLoop() {
        while (!cut) {
            try {
                Socket client = server.accept();
                Socket target = new Socket(targetHost, targetPort);
                synchronized (sockets) {
                    sockets.add(client);
                    sockets.add(target);
                    if (cut) { // accepted just before the cut: it must not get through either
                        closeQuietly(client);
                        closeQuietly(target);
                        return;
                    }
                }
                pipe(client, target);
                pipe(target, client);
            } catch (IOException e) {
                if (cut || server.isClosed()) {
                    return;
                }
            }
        }
    }

    private void pipe(Socket from, Socket to) {
        Thread t = new Thread(() -> {
            byte[] buffer = new byte[8192];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // the other side closed, or the forwarder was cut
            } finally {
                closeQuietly(from);
                closeQuietly(to);
            }
        }, "tcp-forwarder-pipe");
        t.setDaemon(true);
        t.start();
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            // closing anyway
        }
    }

    @Override
    public void close() {
        cut();
    }
}
