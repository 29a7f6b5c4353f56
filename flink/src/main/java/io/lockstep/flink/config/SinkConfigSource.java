package io.lockstep.flink.config;

/**
 * What a sink can be created from: a {@link SinkConfig} itself, or the StarRocks-compatible facade
 * {@code StarRocksSinkOptions}, which translates its options into one. The sinks' public entry points take this, so the
 * documented facade and the internal configuration are both accepted while every sink works on {@link SinkConfig}.
 */
public interface SinkConfigSource {

    /**
     * @return the validated, typed configuration
     * @throws io.lockstep.flink.options.InvalidSinkOptionException if the options cannot form one
     */
    SinkConfig sinkConfig();
}
