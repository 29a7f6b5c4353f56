package io.lockstep.flink.sink.v2;

import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;

/**
 * The Flink 1.20 face of Lockstep's Sink V2 sinks. Flink 1.20 still declares the deprecated
 * {@link Sink#createWriter(Sink.InitContext)} abstract, while its runtime only calls
 * {@link Sink#createWriter(org.apache.flink.api.connector.sink2.WriterInitContext)}; Flink 2.x removed the former.
 * The sinks implement this interface and the {@code WriterInitContext} method only, so one source serves both lines:
 * the Flink 2.x build ({@code flink-2.2}) compiles its own copy of this interface without the method below.
 *
 * @param <T> the element type
 */
public interface CompatibleSink<T> extends Sink<T> {

    /**
     * Not used by Flink 1.20's runtime (it creates writers through the {@code WriterInitContext} overload).
     *
     * @throws UnsupportedOperationException always
     */
    @Override
    @Deprecated
    @SuppressWarnings("deprecation")
    default SinkWriter<T> createWriter(Sink.InitContext context) {
        throw new UnsupportedOperationException("Lockstep sinks create writers through "
                + "createWriter(WriterInitContext); Flink 1.20 and 2.x call that overload");
    }
}
