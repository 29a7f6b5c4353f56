package io.lockstep.emulator.mysql;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;

/**
 * The one frontend and one backend the emulator stands for, as {@code SHOW FRONTENDS} / {@code SHOW BACKENDS} and
 * {@code SHOW PROC '/frontends'} / {@code '/backends'} list them, with StarRocks' columns (fe-core
 * {@code common/proc/FrontendsProcNode.TITLE_NAMES} and {@code common/proc/BackendsProcDir.TITLE_NAMES}). Ports the
 * emulator serves are real (query port, FE and BE HTTP ports); ports it does not serve (edit log 9010, RPC 9020,
 * heartbeat 9050, BE 9060, bRPC 8060) are StarRocks' defaults. Capacities and usage are not tracked and read zero.
 *
 * @param host       the advertised host
 * @param queryPort  the MySQL-protocol port
 * @param feHttpPort the FE HTTP port, or -1 when unknown
 * @param beHttpPort the BE HTTP port, or -1 when unknown
 * @param version    the version string ({@code current_version()})
 * @param startedMs  when the emulator started, epoch ms
 */
record ClusterNodes(String host, int queryPort, int feHttpPort, int beHttpPort, String version, long startedMs) {
    static final List<String> FRONTEND_TITLES = List.of("Name", "IP", "EditLogPort", "HttpPort", "QueryPort",
            "RpcPort", "Role", "ClusterId", "Join", "Alive", "ReplayedJournalId", "LastHeartbeat", "IsHelper",
            "ErrMsg", "StartTime", "Version");
    static final List<String> BACKEND_TITLES = List.of("BackendId", "IP", "HeartbeatPort", "BePort", "HttpPort",
            "BrpcPort", "LastStartTime", "LastHeartbeat", "Alive", "SystemDecommissioned", "ClusterDecommissioned",
            "TabletNum", "DataUsedCapacity", "AvailCapacity", "TotalCapacity", "UsedPct", "MaxDiskUsedPct", "ErrMsg",
            "Version", "Status", "DataTotalCapacity", "DataUsedPct", "CpuCores", "MemLimit", "NumRunningQueries",
            "MemUsedPct", "CpuUsedPct", "DataCacheMetrics", "Location", "StatusCode");
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    SqlResult.Rows frontends() {
        String started = time(startedMs);
        List<Object> row = List.of(host + "_9010_" + startedMs, host, "9010", port(feHttpPort),
                String.valueOf(queryPort), "9020", "LEADER", "1", "true", "true", "0", started, "true", "", started,
                version);
        return SqlResult.Rows.varchar(FRONTEND_TITLES, List.of(row));
    }

    SqlResult.Rows backends(int tablets) {
        String started = time(startedMs);
        List<Object> row = List.of("10001", host, "9050", "9060", port(beHttpPort), "8060", started, started, "true",
                "false", "false", String.valueOf(tablets), "0.000 ", "0.000 ", "0.000 ", "0.00 %", "0.00 %", "",
                version, "{}", "0.000 ", "0.00 %", String.valueOf(Runtime.getRuntime().availableProcessors()), "",
                "0", "0.00 %", "0.0 %", "N/A", "", "OK");
        return SqlResult.Rows.varchar(BACKEND_TITLES, List.of(row));
    }

    private static String port(int port) {
        return port < 0 ? "" : String.valueOf(port);
    }

    private static String time(long epochMs) {
        return TIME.format(LocalDateTime.ofInstant(Instant.ofEpochMilli(epochMs), ZoneOffset.UTC));
    }
}
