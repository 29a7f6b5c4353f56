package io.lockstep.emulator.load;

import java.util.Map;

/** Factory behind {@link LoadFormat#fromHeaders}; replaced by the data plane's implementation. */
final class LoadFormats {
    private LoadFormats() {
    }

    static LoadFormat fromHeaders(Map<String, String> headers) throws LoadFormatException {
        throw new UnsupportedOperationException("data plane not built yet");
    }
}
