/**
 * Load formats: how rows travel in a stream load body. {@link io.lockstep.core.format.LoadFormat} checks a row before
 * it is buffered, gives the bytes that separate rows in a chunk, frames a load's chunks into one request body and
 * supplies the stream load headers that declare the format (StarRocks docs "STREAM LOAD"; Doris docs "Stream Load").
 * {@link io.lockstep.core.format.LoadFormats#forName} is the one place a format name becomes a format;
 * {@link io.lockstep.core.format.JsonLoadFormat} and {@link io.lockstep.core.format.CsvLoadFormat} implement it,
 * {@link io.lockstep.core.format.CompressedLoadFormat} compresses either one's bodies. The buffer
 * ({@code io.lockstep.core.buffer}) holds bytes only and depends on no format.
 */
package io.lockstep.core.format;
