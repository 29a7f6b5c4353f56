package io.lockstep.emulator.mysql;

/** A client sent bytes that are not the MySQL protocol the query port speaks; the connection is closed. */
final class MysqlProtocolException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    MysqlProtocolException(String message) {
        super(message);
    }
}
