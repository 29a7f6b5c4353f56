package io.lockstep.core.client;

import java.io.IOException;
import javax.net.ssl.SSLException;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.HttpHeaders;
import org.apache.hc.core5.http.HttpStatus;
import org.apache.hc.core5.http.config.Http1Config;
import org.apache.hc.core5.http.impl.io.HttpRequestExecutor;
import org.apache.hc.core5.http.io.HttpClientConnection;
import org.apache.hc.core5.http.io.HttpResponseInformationCallback;
import org.apache.hc.core5.http.message.MessageSupport;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.io.Closer;
import org.apache.hc.core5.util.Timeout;

/**
 * Executes {@code Expect: 100-continue} requests so that a node which answers before the body (the FE's 307,
 * or an early error) never receives the body (docs/protocol.md#redirects-failover-and-probes: "a large body travels
 * only to the BE"), and a node that stays silent never receives it either.
 *
 * <p>Why not the stock executor: HttpCore 5 sends the body after any final response below 400 that arrives
 * while it waits for {@code 100 Continue}, so every load would cross the FE and then the BE; and it sends the body
 * after the wait-for-continue timeout, so a hung node costs that wait plus the whole socket timeout. Here the body
 * is sent only after {@code 100 Continue}; a node silent for the whole wait gets no body and the request fails with
 * {@link SilentNodeException}, which the caller treats as "not sent" (fail over to the next load URL).
 * When a final response arrives first, the body is skipped and the response is marked {@code Connection: close}
 * so that the connection, whose request is incomplete, is closed rather than pooled. Requests without the
 * header go to the stock executor unchanged.
 */
final class ExpectContinueExecutor extends HttpRequestExecutor {
    private final Timeout waitForContinue;

    ExpectContinueExecutor(Timeout waitForContinue) {
        super(Http1Config.custom().setWaitForContinueTimeout(waitForContinue).build(), null, null);
        this.waitForContinue = waitForContinue;
    }

    @Override
    public ClassicHttpResponse execute(ClassicHttpRequest request, HttpClientConnection conn,
                                       HttpResponseInformationCallback informationCallback, HttpContext context)
            throws IOException, HttpException {
        Header expect = request.getFirstHeader(HttpHeaders.EXPECT);
        if (request.getEntity() == null || expect == null || !"100-continue".equalsIgnoreCase(expect.getValue())) {
            return super.execute(request, conn, informationCallback, context);
        }
        try {
            conn.sendRequestHeader(request);
            conn.flush();
            ClassicHttpResponse early = awaitContinue(conn, informationCallback, context);
            ClassicHttpResponse response;
            if (early != null) {
                early.setHeader(HttpHeaders.CONNECTION, "close");
                response = early;
            } else {
                conn.sendRequestEntity(request);
                conn.flush();
                response = receiveFinal(conn, informationCallback, context);
            }
            if (MessageSupport.canResponseHaveBody(request.getMethod(), response)) {
                conn.receiveResponseEntity(response);
            }
            return response;
        } catch (HttpException | SSLException e) {
            Closer.closeQuietly(conn);
            throw e;
        } catch (IOException | RuntimeException e) {
            Closer.close(conn, CloseMode.IMMEDIATE);
            throw e;
        }
    }

    /**
     * Null when the body should be sent now (100 Continue); else the final reply.
     *
     * @throws SilentNodeException when nothing arrived within the wait-for-continue timeout
     */
    private ClassicHttpResponse awaitContinue(HttpClientConnection conn, HttpResponseInformationCallback callback,
                                              HttpContext context) throws IOException, HttpException {
        while (conn.isDataAvailable(waitForContinue)) {
            ClassicHttpResponse response = conn.receiveResponseHeader();
            int status = response.getCode();
            if (status == HttpStatus.SC_CONTINUE) {
                return null;
            }
            if (status >= HttpStatus.SC_SUCCESS) {
                return response;
            }
            if (callback != null) {
                callback.execute(response, conn, context);
            }
        }
        throw new SilentNodeException("no 100 Continue nor reply within the wait-for-continue timeout of "
                + waitForContinue.toMilliseconds() + " ms (sink.wait-for-continue.timeout-ms); the body was not sent");
    }

    private static ClassicHttpResponse receiveFinal(HttpClientConnection conn, HttpResponseInformationCallback callback,
                                                    HttpContext context) throws IOException, HttpException {
        while (true) {
            ClassicHttpResponse response = conn.receiveResponseHeader();
            int status = response.getCode();
            if (status >= HttpStatus.SC_SUCCESS) {
                return response;
            }
            if (callback != null && status != HttpStatus.SC_CONTINUE) {
                callback.execute(response, conn, context);
            }
        }
    }
}
