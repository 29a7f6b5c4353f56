package io.lockstep.flink.sink.v2;

import org.apache.flink.api.connector.sink2.Sink;

/**
 * The Flink 2.x face of Lockstep's Sink V2 sinks: Flink 2.x has only
 * {@link Sink#createWriter(org.apache.flink.api.connector.sink2.WriterInitContext)}, which the sinks implement, so
 * nothing is added here. The Flink 1.20 build compiles its own copy, which stubs the deprecated overload 1.20 still
 * declares.
 *
 * @param <T> the element type
 */
public interface CompatibleSink<T> extends Sink<T> {
}
