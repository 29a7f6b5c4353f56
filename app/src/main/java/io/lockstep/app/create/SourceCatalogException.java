package io.lockstep.app.create;

/**
 * The source database's catalog could not be read: the connection failed, a privilege is missing, or the catalog
 * holds something table creation cannot describe. The message is one line naming the JDBC URL (without any password)
 * and, where it applies, the table; it never heals by retrying, so callers stop with it.
 */
public final class SourceCatalogException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** @param message one line naming the URL (password removed) and the table where it applies */
    public SourceCatalogException(String message) {
        super(message);
    }

    /**
     * @param message one line naming the URL (password removed) and the table where it applies
     * @param cause the driver's exception
     */
    public SourceCatalogException(String message, Throwable cause) {
        super(message, cause);
    }
}
