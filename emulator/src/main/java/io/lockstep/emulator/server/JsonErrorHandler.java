package io.lockstep.emulator.server;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lockstep.emulator.http.JsonText;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Answers the errors Jetty raises before a request reaches {@link JettyHandler} (e.g. 431 for a header over the
 * size limit, 400 for a malformed request) with the emulator's JSON error shape
 * {@code {"status":"FAILED","msg":"HTTP 431 Request Header Fields Too Large: ..."}} instead of Jetty's HTML page,
 * so a client parsing JSON gets a readable error. Never echoes header values. Thread-safe (stateless).
 */
final class JsonErrorHandler extends ErrorHandler {

    @Override
    protected void generateResponse(Request request, Response response, int code, String message, Throwable cause,
            Callback callback) {
        ObjectNode json = JsonText.object();
        json.put("status", "FAILED");
        String reason = HttpStatus.getMessage(code);
        String text = "HTTP " + code + " " + reason;
        if (message != null && !message.isBlank() && !message.equals(reason)) {
            text += ": " + message;
        }
        json.put("msg", text);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json; charset=utf-8");
        Content.Sink.write(response, true, JsonText.write(json), callback);
    }
}
