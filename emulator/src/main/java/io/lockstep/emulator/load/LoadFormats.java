package io.lockstep.emulator.load;

import java.util.Map;

/** Factory behind {@link LoadFormat#fromHeaders}: the emulator's one implementation, {@link StreamLoadFormat}. */
final class LoadFormats {
    private LoadFormats() {
    }

    static LoadFormat fromHeaders(Map<String, String> headers) throws LoadFormatException {
        return StreamLoadFormat.fromHeaders(headers);
    }
}
