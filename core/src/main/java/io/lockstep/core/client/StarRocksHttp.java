package io.lockstep.core.client;

import io.lockstep.core.format.LoadBody;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.annotation.concurrent.ThreadSafe;
import javax.net.ssl.SSLHandshakeException;
import org.apache.hc.client5.http.ConnectTimeoutException;
import org.apache.hc.client5.http.classic.methods.HttpUriRequestBase;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.client5.http.ssl.TlsSocketStrategy;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP transport of the StarRocks dialect: one request, sent to the first live load URL and followed through
 * its 307 redirects.
 *
 * <ul>
 *   <li>Redirects (307/308) are followed for every method by this class, not by HttpClient: each hop re-sends the
 *       same method, all headers including {@code Authorization}, and the same body (a repeatable entity written
 *       from the body's source, {@link LoadBodyEntity}). The FE may answer with two hops (follower → leader → BE), so
 *       up to {@value #MAX_REDIRECT_HOPS}
 * hops are followed (docs/protocol.md#redirects-failover-and-probes). User info in a {@code Location} (Doris' FE sends
 *       {@code user:password@}) is dropped, never logged.</li>
 *   <li>Loads set {@code Expect: 100-continue} so the FE can redirect before the body is sent; a node that answers
 *       first (the FE's 307) never gets the body, and a node silent for {@code waitForContinueTimeoutMs} gets no
 *       body either and counts as unreachable ({@link ExpectContinueExecutor}, {@link SilentNodeException}).</li>
 *   <li>Failover: the first hop goes to the load URL that last worked; when its connect fails (refused, timed out,
 *       unresolvable) or it stays silent through a load's wait for {@code 100 Continue}, the next URL is tried,
 *       once each. If every URL fails, a redirect target cannot be reached, or the redirects do not end,
 *       {@link NotSentException} is thrown: no node acted on the request.</li>
 *   <li>Any other I/O failure (reset, response timeout, truncated reply) is an ambiguous {@link IOException}
 *       naming the URL: the server may have acted on the request. When the load URL itself did not answer within
 *       {@code socketTimeoutMs}, the next request (the caller's retry or label-state query) starts at the next load
 *       URL, so a hung FE is left after one socket timeout.</li>
 * </ul>
 * The {@code Authorization} header and the password are never logged. Thread-safe.
 */
@ThreadSafe
final class StarRocksHttp implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StarRocksHttp.class);

    /** Redirect hops followed per request before giving up. */
    static final int MAX_REDIRECT_HOPS = 5;
    /** Replies longer than this are cut (a JSON reply is a few hundred bytes). */
    static final int MAX_REPLY_BYTES = 1 << 20;

    private final List<URI> bases;
    private final AddressMap redirectAddressMap;
    private final String authorization;
    private final CloseableHttpClient client;
    private final RequestConfig plainConfig;
    private final RequestConfig expectContinueConfig;
    /** Index of the load URL that last accepted a connection; any thread may move it. */
    private final AtomicInteger preferredBase = new AtomicInteger();

    StarRocksHttp(TransactionClientConfig config) {
        this(config, new LazyTlsSocketStrategy());
    }

    /** With the TLS of {@code https} connections given (tests); {@link LazyTlsSocketStrategy} by default. */
    StarRocksHttp(TransactionClientConfig config, TlsSocketStrategy tls) {
        this.bases = config.loadUrls().bases();
        this.redirectAddressMap = config.redirectAddressMap();
        String credentials = config.username() + ":" + config.password();
        this.authorization = "Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8));
        ConnectionConfig connectionConfig = ConnectionConfig.custom()
                .setConnectTimeout(Timeout.ofMilliseconds(config.connectTimeoutMs()))
                .setSocketTimeout(Timeout.ofMilliseconds(config.socketTimeoutMs()))
                .setValidateAfterInactivity(TimeValue.ofMilliseconds(500))
                .build();
        this.plainConfig = RequestConfig.custom()
                .setRedirectsEnabled(false)
                .setExpectContinueEnabled(false)
                .setResponseTimeout(Timeout.ofMilliseconds(config.socketTimeoutMs()))
                .build();
        this.expectContinueConfig = RequestConfig.copy(plainConfig).setExpectContinueEnabled(true).build();
        this.client = HttpClients.custom()
                .setConnectionManager(PoolingHttpClientConnectionManagerBuilder.create()
                        .setDefaultConnectionConfig(connectionConfig)
                        .setMaxConnTotal(64)
                        .setMaxConnPerRoute(32)
                        .setTlsSocketStrategy(tls) // else the builder sets up the JDK's TLS for every client
                        .build())
                .setRequestExecutor(new ExpectContinueExecutor(
                        Timeout.ofMilliseconds(config.waitForContinueTimeoutMs())))
                .setDefaultRequestConfig(plainConfig)
                .disableRedirectHandling()
                .disableAutomaticRetries()
                .disableCookieManagement()
                .disableAuthCaching()
                .evictIdleConnections(TimeValue.of(30, TimeUnit.SECONDS))
                .setUserAgent("lockstep")
                .build();
    }

    /**
     * Sends one request to the first live load URL and follows its redirects.
     *
     * @param pathAndQuery   e.g. {@code /api/transaction/begin} or {@code /api/db/get_load_state?label=L}
     * @param headers        protocol headers (label, db, table, load properties); {@code Authorization} is added here
     * @param body           the body, or null for none; written again on every hop
     * @param expectContinue whether to send {@code Expect: 100-continue} (loads)
     * @return the final non-redirect reply
     * @throws NotSentException if no node was reached; an {@link IOException} naming the URL on any other I/O error
     */
    HttpReply send(String method, String pathAndQuery, Map<String, String> headers, LoadBody body,
                   boolean expectContinue) throws IOException {
        int start = preferredBase.get();
        NotSentException lastFailure = null;
        for (int i = 0; i < bases.size(); i++) {
            int index = (start + i) % bases.size();
            URI first = URI.create(bases.get(index).toString() + pathAndQuery);
            try {
                HttpReply reply = followRedirects(method, first, headers, body, expectContinue, index);
                preferredBase.compareAndSet(start, index);
                return reply;
            } catch (FirstHopUnreachable e) {
                lastFailure = e.failure;
                if (bases.size() > 1) {
                    LOG.warn("Load URL {} is unreachable ({}); trying the next load URL", bases.get(index),
                            String.valueOf(e.failure.getCause()));
                }
            }
        }
        throw lastFailure;
    }

    /**
     * A plain GET without credentials (the BE's error log, {@code ErrorURL}), reading at most {@code maxBytes}.
     *
     * @throws IOException naming the URL on any failure
     */
    HttpReply getLimited(URI uri, int maxBytes) throws IOException {
        HttpUriRequestBase request = new HttpUriRequestBase("GET", uri);
        request.setConfig(plainConfig);
        try {
            return client.execute(request, response -> read(response, uri, maxBytes));
        } catch (IOException e) {
            throw new IOException("GET " + uri + " failed: " + e, e);
        }
    }

    private HttpReply followRedirects(String method, URI first, Map<String, String> headers, LoadBody body,
                                      boolean expectContinue, int baseIndex) throws IOException, FirstHopUnreachable {
        URI uri = first;
        URI redirectedBy = null; // the node whose 307 pointed at uri
        URI advertised = null; // the Location as the server gave it, when the address map replaced it
        for (int hop = 0; hop <= MAX_REDIRECT_HOPS; hop++) {
            HttpUriRequestBase request = new HttpUriRequestBase(method, uri);
            request.setConfig(expectContinue ? expectContinueConfig : plainConfig);
            headers.forEach(request::setHeader);
            request.setHeader("Authorization", authorization);
            if (body != null) {
                request.setEntity(new LoadBodyEntity(body));
            }
            HttpReply reply;
            try {
                URI target = uri;
                reply = client.execute(request, response -> read(response, target, MAX_REPLY_BYTES));
            } catch (IOException e) {
                if (isConnectFailure(e) || e instanceof SilentNodeException) {
                    NotSentException notSent = new NotSentException(method + " " + uri + (e instanceof SilentNodeException
                            ? " is silent: " : " could not connect: ") + e + redirectHint(redirectedBy, advertised,
                            uri), e);
                    if (hop == 0) {
                        throw new FirstHopUnreachable(notSent);
                    }
                    throw notSent;
                }
                if (hop == 0 && e instanceof SocketTimeoutException && bases.size() > 1) {
                    int next = (baseIndex + 1) % bases.size();
                    if (preferredBase.compareAndSet(baseIndex, next)) {
                        LOG.warn("Load URL {} did not answer {} within the socket timeout; the next request goes to {}",
                                bases.get(baseIndex), method, bases.get(next));
                    }
                }
                throw new IOException(method + " " + uri + " failed: " + e, e);
            }
            if (reply.statusCode() != 307 && reply.statusCode() != 308) {
                return reply;
            }
            if (reply.location() == null) {
                throw new IOException(method + " " + uri + " answered " + reply.statusCode() + " without a Location");
            }
            URI location = withoutUserInfo(uri.resolve(reply.location()));
            URI next = redirectAddressMap.apply(location);
            LOG.debug("{} {} redirected to {}{}", method, uri, location, next == location ? "" : " (mapped to " + next + ")");
            redirectedBy = uri;
            advertised = next == location ? null : location;
            uri = next;
        }
        // every hop answered 307, so no node acted on the request: safe to send again
        throw new NotSentException(method + " " + first + " still redirects after " + MAX_REDIRECT_HOPS
                + " hops (last " + uri + "): the FE may be overloaded or misconfigured", null);
    }

    /** For an unreachable node: which node redirected there, and how to map an advertised address; "" for hop 0. */
    private String redirectHint(URI redirectedBy, URI advertised, URI target) {
        if (redirectedBy == null) {
            return "";
        }
        String hostPort = target.getHost() + ":" + target.getPort();
        if (advertised != null) {
            return "; " + redirectedBy + " redirected to " + advertised.getHost() + ":" + advertised.getPort()
                    + ", mapped to " + hostPort + " by sink.be-address-map";
        }
        return "; " + redirectedBy + " redirected the request to " + hostPort + ", the address the cluster advertises"
                + " for that node: if this client cannot reach it (Docker, Kubernetes, NAT), map it to a reachable one"
                + " with sink.be-address-map=" + hostPort + "=<reachable-host>:<port>";
    }

    private static HttpReply read(ClassicHttpResponse response, URI uri, int maxBytes) throws IOException {
        Header location = response.getFirstHeader("Location");
        HttpEntity entity = response.getEntity();
        byte[] body = new byte[0];
        if (entity != null) {
            try (InputStream in = entity.getContent()) {
                body = in.readNBytes(maxBytes);
            }
        }
        return new HttpReply(response.getCode(), uri, location == null ? null : location.getValue(), body);
    }

    /**
     * The redirect target without URL user info: Doris' FE puts the caller's {@code user:password@} into the 307
     * {@code Location} (docs/protocol.md#doris-endpoints-redirects-and-headers), which HttpClient 5 refuses and which
     * must never reach a log or a message; every hop re-sends the {@code Authorization} header instead.
     */
    static URI withoutUserInfo(URI uri) {
        if (uri.getRawUserInfo() == null) {
            return uri;
        }
        try {
            return new URI(uri.getScheme(), null, uri.getHost(), uri.getPort(), uri.getPath(), uri.getQuery(),
                    uri.getFragment());
        } catch (java.net.URISyntaxException e) {
            throw new IllegalArgumentException("redirect target cannot be rebuilt without its user info", e);
        }
    }

    /** True when the failure happened while connecting, before any request byte was sent. */
    static boolean isConnectFailure(IOException e) {
        return e instanceof ConnectException
                || e instanceof ConnectTimeoutException
                || e instanceof UnknownHostException
                || e instanceof NoRouteToHostException
                || e instanceof SSLHandshakeException
                || (e instanceof InterruptedIOException && e.getCause() instanceof ConnectException);
    }

    @Override
    public void close() {
        try {
            client.close();
        } catch (IOException e) {
            LOG.debug("closing the HTTP client failed", e);
        }
    }

    /** A raw reply: status code, the URL that produced it, its Location header (redirects), its body bytes. */
    record HttpReply(int statusCode, URI uri, String location, byte[] body) {
        /** The first {@code maxChars} characters of the body, for error messages. */
        String preview(int maxChars) {
            String text = new String(body, StandardCharsets.UTF_8);
            return text.length() <= maxChars ? text : text.substring(0, maxChars) + "...";
        }
    }

    /** Internal signal: the first hop could not connect, so the next load URL may be tried. */
    private static final class FirstHopUnreachable extends Exception {
        private static final long serialVersionUID = 1L;
        private final transient NotSentException failure;

        FirstHopUnreachable(NotSentException failure) {
            super(null, null, false, false);
            this.failure = failure;
        }
    }
}
