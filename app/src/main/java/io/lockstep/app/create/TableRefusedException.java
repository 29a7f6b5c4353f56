package io.lockstep.app.create;

/**
 * A source table that table creation will not create, because a StarRocks table of the same shape could not hold
 * every row exactly: no primary key, a key type or key length StarRocks does not allow, a name StarRocks does not
 * accept. The message is one line naming the source table ({@code db.table}), the reason and the fix (a
 * {@code --key-columns} or {@code --column-type} override, or a setting of the source); docs/table-creation.md#keys
 * lists the rules.
 */
public class TableRefusedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** @param message one line: table, reason, fix */
    public TableRefusedException(String message) {
        super(message);
    }
}
