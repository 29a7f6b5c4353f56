package io.lockstep.emulator.mysql;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The StarRocks functions the query port runs, each translated to H2 SQL (StarRocks' function list:
 * {@code fe/fe-core/src/main/java/com/starrocks/catalog/FunctionSet.java} and the built-ins generated from
 * {@code gensrc/script/functions.py}; semantics from the StarRocks SQL reference). A function that is not here gets
 * StarRocks' analysis error {@code No matching function with signature: name(types).} (FE
 * {@code sql/analyzer/ExpressionAnalyzer.java}). The list is in the emulator's README.
 *
 * <p>Time: {@code now()} and friends are the statement's start in the session's {@code time_zone};
 * {@code unix_timestamp(d)} reads d and {@code from_unixtime(n)} writes its result in the session's time zone, with
 * that zone's offset at that instant (daylight saving included). Stateless.
 */
final class SqlFunctions {

    /**
     * One argument of a call.
     *
     * @param h2      the argument translated to H2
     * @param literal the value when the argument is one string literal, else null
     * @param word    the word when the argument is one bare word (a unit such as DAY), else null
     * @param unit    for {@code INTERVAL n unit}: the unit (upper case), with {@code h2} the amount; else null
     * @param type    the StarRocks type of a literal argument, for error messages ("varchar", "tinyint(4)", ...)
     */
    record Arg(String h2, String literal, String word, String unit, String type) {
    }

    /** What the functions read from the session: the statement's clock and zone, and the server expressions. */
    record Context(Instant now, ZoneId zone, String database, String user, int connectionId, QueryDialect dialect) {
        LocalDateTime localNow() {
            return LocalDateTime.ofInstant(now, zone);
        }

        /** The session's zone as H2 reads it after a timestamp: {@code +08:00} or a region such as Europe/Berlin. */
        String h2Zone() {
            ZoneId normalized = zone.normalized();
            if (normalized instanceof java.time.ZoneOffset offset) {
                return offset.getTotalSeconds() == 0 ? "+00:00" : offset.getId();
            }
            return normalized.getId();
        }
    }

    private interface Translation {
        String apply(String name, List<Arg> args, Context context);
    }

    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
    private static final Set<String> UNITS = Set.of("YEAR", "QUARTER", "MONTH", "WEEK", "DAY", "HOUR", "MINUTE",
            "SECOND", "MILLISECOND", "MICROSECOND");
    private static final Map<String, Translation> FUNCTIONS = new java.util.HashMap<>();
    /** Number of arguments per function; -1: one or more (any number for window functions). */
    private static final Map<String, Integer> ARITY = new java.util.HashMap<>();

    static {
        // conditions
        register((n, a, c) -> "CASE WHEN " + p(a, 0) + " THEN " + p(a, 1) + " ELSE " + p(a, 2) + " END", 3, "if");
        register((n, a, c) -> "COALESCE(" + p(a, 0) + ", " + p(a, 1) + ")", 2, "ifnull", "nvl");
        register((n, a, c) -> "NULLIF(" + p(a, 0) + ", " + p(a, 1) + ")", 2, "nullif");
        register((n, a, c) -> "(" + p(a, 0) + " IS NULL)", 1, "isnull");
        register((n, a, c) -> "(" + p(a, 0) + " IS NOT NULL)", 1, "isnotnull");
        register((n, a, c) -> call("COALESCE", a), -1, "coalesce");
        register((n, a, c) -> call(n.toUpperCase(Locale.ROOT), a), -1, "greatest", "least");
        // aggregates and window functions: same name and arguments in H2
        register((n, a, c) -> call(n.toUpperCase(Locale.ROOT), a), -1, "count", "sum", "avg", "min", "max",
                "stddev", "stddev_pop", "stddev_samp", "variance", "var_pop", "var_samp", "row_number", "rank",
                "dense_rank", "lag", "lead", "first_value", "last_value", "ntile", "bool_and", "bool_or");
        register((n, a, c) -> "LISTAGG(CAST(" + p(a, 0) + " AS VARCHAR), "
                + (a.size() > 1 ? a.get(1).h2() : "','") + ")", -1, "group_concat");
        register((n, a, c) -> "COUNT(DISTINCT " + p(a, 0) + ")", 1, "ndv", "approx_count_distinct");
        // strings
        register((n, a, c) -> "(" + a.stream().map(x -> "CAST(" + x.h2() + " AS VARCHAR)")
                .collect(Collectors.joining(" || ")) + ")", -1, "concat");
        register((n, a, c) -> call("CONCAT_WS", a), -1, "concat_ws");
        register((n, a, c) -> call("SUBSTRING", a), -1, "substr", "substring");
        register((n, a, c) -> "OCTET_LENGTH(CAST(" + p(a, 0) + " AS VARCHAR))", 1, "length", "octet_length");
        register((n, a, c) -> "CHAR_LENGTH(CAST(" + p(a, 0) + " AS VARCHAR))", 1, "char_length",
                "character_length");
        register((n, a, c) -> "LOWER(" + p(a, 0) + ")", 1, "lower", "lcase");
        register((n, a, c) -> "UPPER(" + p(a, 0) + ")", 1, "upper", "ucase");
        register((n, a, c) -> call(n.toUpperCase(Locale.ROOT), a), 1, "trim", "ltrim", "rtrim", "reverse");
        register((n, a, c) -> call("REPLACE", a), 3, "replace");
        register((n, a, c) -> call(n.toUpperCase(Locale.ROOT), a), 3, "lpad", "rpad");
        register((n, a, c) -> call(n.toUpperCase(Locale.ROOT), a), 2, "left", "right", "repeat");
        register((n, a, c) -> "LOCATE(" + p(a, 1) + ", " + p(a, 0) + ")", 2, "instr");
        register((n, a, c) -> call("LOCATE", a), -1, "locate");
        register((n, a, c) -> "LEFT(" + p(a, 0) + ", " + p(a, 1) + ")", 2, "strleft");
        register((n, a, c) -> "RIGHT(" + p(a, 0) + ", " + p(a, 1) + ")", 2, "strright");
        register((n, a, c) -> "(LEFT(" + p(a, 0) + ", CHAR_LENGTH(" + p(a, 1) + ")) = " + p(a, 1) + ")", 2,
                "starts_with");
        register((n, a, c) -> "(RIGHT(" + p(a, 0) + ", CHAR_LENGTH(" + p(a, 1) + ")) = " + p(a, 1) + ")", 2,
                "ends_with");
        register((n, a, c) -> call("REGEXP_REPLACE", a), 3, "regexp_replace");
        register((n, a, c) -> "CAST(RANDOM_UUID() AS VARCHAR)", 0, "uuid");
        // numbers
        register((n, a, c) -> call(n.toUpperCase(Locale.ROOT), a), 1, "abs", "ceil", "floor", "sqrt", "exp",
                "ln", "log10", "sign");
        register((n, a, c) -> "CEIL(" + p(a, 0) + ")", 1, "ceiling");
        register((n, a, c) -> call("ROUND", a), -1, "round");
        register((n, a, c) -> call("TRUNC", a), 2, "truncate");
        register((n, a, c) -> call("MOD", a), 2, "mod");
        register((n, a, c) -> call("POWER", a), 2, "pow", "power");
        register((n, a, c) -> "RAND()", 0, "rand", "random");
        // dates and times
        register((n, a, c) -> "TIMESTAMP '" + TIMESTAMP.format(c.localNow()) + "'", 0, "now", "current_timestamp",
                "localtime", "localtimestamp", "sysdate");
        register((n, a, c) -> "DATE '" + c.localNow().toLocalDate() + "'", 0, "curdate", "current_date");
        register((n, a, c) -> "TIMESTAMP '" + TIMESTAMP.format(LocalDateTime.ofInstant(c.now(), ZoneId.of("UTC")))
                + "'", 0, "utc_timestamp");
        register((n, a, c) -> "CAST(CAST(" + p(a, 0) + " AS TIMESTAMP) AS DATE)", 1, "date", "to_date");
        register((n, a, c) -> "FORMATDATETIME(" + dateTime(a, 0) + ", " + javaPattern(n, a, 1) + ")", 2,
                "date_format");
        register((n, a, c) -> "CAST(PARSEDATETIME(" + p(a, 0) + ", " + javaPattern(n, a, 1) + ") AS "
                + (hasTime(a.get(1).literal()) ? "TIMESTAMP" : "DATE") + ")", 2, "str_to_date", "str2date");
        register((n, a, c) -> "DATE_TRUNC('" + truncUnit(a.get(0)) + "', " + dateTime(a, 1) + ")", 2,
                "date_trunc");
        register((n, a, c) -> "(MOD(EXTRACT(ISO_DAY_OF_WEEK FROM " + p(a, 0) + "), 7) + 1)", 1, "dayofweek");
        register((n, a, c) -> "EXTRACT(ISO_WEEK FROM " + p(a, 0) + ")", 1, "weekofyear");
        register((n, a, c) -> dateAdd(a, false), 2, "date_add", "adddate");
        register((n, a, c) -> dateAdd(a, true), 2, "date_sub", "subdate");
        for (String unit : List.of("years", "months", "weeks", "days", "hours", "minutes", "seconds")) {
            String h2Unit = unit.substring(0, unit.length() - 1).toUpperCase(Locale.ROOT);
            register((n, a, c) -> "DATEADD(" + h2Unit + ", " + p(a, 1) + ", " + p(a, 0) + ")", 2, unit + "_add");
            register((n, a, c) -> "DATEADD(" + h2Unit + ", -(" + p(a, 1) + "), " + p(a, 0) + ")", 2,
                    unit + "_sub");
        }
        register((n, a, c) -> "DATEDIFF(DAY, " + p(a, 1) + ", " + p(a, 0) + ")", 2, "datediff");
        register((n, a, c) -> "DATEDIFF(" + unit(n, a.get(0)) + ", " + p(a, 1) + ", " + p(a, 2) + ")", 3,
                "timestampdiff");
        // a local date-time of the session's zone, read as that zone's instant (daylight saving included)
        register((n, a, c) -> a.isEmpty() ? Long.toString(c.now().getEpochSecond())
                : "CAST(FLOOR(EXTRACT(EPOCH FROM CAST(CAST(CAST(" + p(a, 0) + " AS TIMESTAMP) AS VARCHAR) || ' "
                + c.h2Zone() + "' AS TIMESTAMP WITH TIME ZONE))) AS BIGINT)", -1, "unix_timestamp");
        register((n, a, c) -> "FORMATDATETIME(DATEADD(SECOND, CAST(" + p(a, 0) + " AS BIGINT), "
                + "TIMESTAMP WITH TIME ZONE '1970-01-01 00:00:00+00') AT TIME ZONE '" + c.h2Zone() + "', "
                + (a.size() > 1 ? javaPattern(n, a, 1) : "'yyyy-MM-dd HH:mm:ss'") + ")", -1, "from_unixtime");
        for (String part : List.of("year", "quarter", "month", "day", "hour", "minute", "second")) {
            register((n, a, c) -> "EXTRACT(" + part.toUpperCase(Locale.ROOT) + " FROM " + p(a, 0) + ")", 1, part);
        }
        register((n, a, c) -> "EXTRACT(DAY FROM " + p(a, 0) + ")", 1, "dayofmonth");
        register((n, a, c) -> "EXTRACT(DAY_OF_YEAR FROM " + p(a, 0) + ")", 1, "dayofyear");
        // server expressions
        register((n, a, c) -> SqlLexer.quote(c.dialect().mysqlVersion()), 0, "version");
        register((n, a, c) -> c.dialect().currentVersion() == null ? null
                : SqlLexer.quote(c.dialect().currentVersion()), 0, "current_version");
        register((n, a, c) -> c.database() == null ? "NULL" : SqlLexer.quote(c.database()), 0, "database", "schema");
        register((n, a, c) -> SqlLexer.quote("'" + c.user() + "'@'%'"), 0, "user", "current_user", "session_user",
                "system_user");
        register((n, a, c) -> Integer.toString(c.connectionId()), 0, "connection_id");
    }

    private static void register(Translation translation, int arity, String... names) {
        for (String name : names) {
            FUNCTIONS.put(name, translation);
            ARITY.put(name, arity);
        }
    }

    private SqlFunctions() {
    }

    /** The names of the functions the query port runs, sorted. */
    static Set<String> names() {
        return new TreeSet<>(FUNCTIONS.keySet());
    }

    /** Whether {@code name} (any case) is a function that can be written without parentheses. */
    static boolean isNiladic(String name) {
        return Set.of("current_timestamp", "current_date", "localtime", "localtimestamp", "current_user")
                .contains(name.toLowerCase(Locale.ROOT));
    }

    /**
     * A call in H2 SQL.
     *
     * @throws SqlError StarRocks' "No matching function with signature" for an unknown function or a wrong number of
     *                  arguments; 1064 for a format that is not a string literal or an unknown unit
     */
    static String translate(String name, List<Arg> args, Context context) {
        String key = name.toLowerCase(Locale.ROOT);
        Translation translation = FUNCTIONS.get(key);
        Integer arity = ARITY.get(key);
        boolean arityOk = arity != null && (arity < 0 || arity == args.size()
                || (key.equals("date_add") || key.equals("date_sub")) && args.size() == 2);
        if (key.equals("unix_timestamp") || key.equals("from_unixtime")) {
            arityOk = args.size() <= 2 && (key.equals("unix_timestamp") ? args.size() <= 1 : !args.isEmpty());
        }
        if (arity != null && arity < 0 && args.isEmpty() && !key.equals("unix_timestamp")
                && !key.startsWith("row_number") && !key.equals("rank") && !key.equals("dense_rank")) {
            arityOk = false;
        }
        String h2 = translation == null || !arityOk ? null : translation.apply(key, args, context);
        if (h2 == null) {
            throw SqlErrors.noMatchingFunction(key, args.stream().map(a -> a.type() == null ? "unknown" : a.type())
                    .collect(Collectors.joining(", ")));
        }
        return h2;
    }

    private static String p(List<Arg> args, int i) {
        return "(" + args.get(i).h2() + ")";
    }

    /**
     * A datetime argument: a string literal is cast to TIMESTAMP (StarRocks casts {@code '2026-01-02 03:04:05'}
     * implicitly where a DATETIME is expected; H2's date functions refuse a string), anything else as is.
     */
    private static String dateTime(List<Arg> args, int i) {
        return args.get(i).literal() == null ? p(args, i) : "CAST(" + args.get(i).h2() + " AS TIMESTAMP)";
    }

    private static String call(String h2Name, List<Arg> args) {
        return h2Name + "(" + args.stream().map(Arg::h2).collect(Collectors.joining(", ")) + ")";
    }

    private static String dateAdd(List<Arg> args, boolean subtract) {
        Arg amount = args.get(1);
        String unit = amount.unit() != null ? amount.unit() : "DAY";
        return "DATEADD(" + unit + ", " + (subtract ? "-" : "") + "(" + amount.h2() + "), " + p(args, 0) + ")";
    }

    private static String unit(String function, Arg arg) {
        String unit = arg.word() == null ? null : arg.word().toUpperCase(Locale.ROOT);
        if (unit == null || !UNITS.contains(unit)) {
            throw SqlErrors.analysis(function + " needs a time unit (" + String.join(", ", new TreeSet<>(UNITS))
                    + ") as its first argument");
        }
        return unit;
    }

    /** date_trunc's unit: a string literal naming year, quarter, month, week, day, hour, minute or second. */
    private static String truncUnit(Arg arg) {
        String unit = arg.literal() == null ? null : arg.literal().toUpperCase(Locale.ROOT);
        if (unit == null || !UNITS.contains(unit) || unit.endsWith("SECOND") && !unit.equals("SECOND")) {
            throw SqlErrors.analysis("date_trunc's first argument must be one of 'year', 'quarter', 'month', "
                    + "'week', 'day', 'hour', 'minute', 'second'");
        }
        return unit;
    }

    /** A unit of {@code INTERVAL n unit}, upper case; 1064 when StarRocks has no such unit. */
    static String intervalUnit(String word) {
        String unit = word.toUpperCase(Locale.ROOT);
        if (!UNITS.contains(unit)) {
            throw SqlErrors.analysis("Unsupported time unit '" + word + "'");
        }
        return unit;
    }

    private static boolean hasTime(String mysqlFormat) {
        return mysqlFormat != null && mysqlFormat.matches("(?s).*%[HhIklisSfpTr].*");
    }

    /** A MySQL/StarRocks date format (a string literal) as an H2 FORMATDATETIME pattern literal. */
    private static String javaPattern(String function, List<Arg> args, int index) {
        String format = args.get(index).literal();
        if (format == null) {
            throw SqlErrors.analysis(function + "'s format must be a string literal in the emulator");
        }
        StringBuilder pattern = new StringBuilder();
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < format.length(); i++) {
            char ch = format.charAt(i);
            if (ch != '%' || i + 1 == format.length()) {
                text.append(ch);
                continue;
            }
            char spec = format.charAt(++i);
            String java = switch (spec) {
                case 'Y' -> "yyyy";
                case 'y' -> "yy";
                case 'm' -> "MM";
                case 'c' -> "M";
                case 'd' -> "dd";
                case 'e' -> "d";
                case 'H' -> "HH";
                case 'k' -> "H";
                case 'h', 'I' -> "hh";
                case 'l' -> "h";
                case 'i' -> "mm";
                case 's', 'S' -> "ss";
                case 'f' -> "SSSSSS";
                case 'p' -> "a";
                case 'M' -> "MMMM";
                case 'b' -> "MMM";
                case 'W' -> "EEEE";
                case 'a' -> "EEE";
                case 'j' -> "DDD";
                case 'T' -> "HH:mm:ss";
                case 'r' -> "hh:mm:ss a";
                default -> null;
            };
            if (java == null) {
                text.append(spec);
            } else {
                flushText(pattern, text);
                pattern.append(java);
            }
        }
        flushText(pattern, text);
        return "'" + pattern.toString().replace("'", "''") + "'";
    }

    private static void flushText(StringBuilder pattern, StringBuilder text) {
        if (text.length() > 0) {
            pattern.append('\'').append(text.toString().replace("'", "''")).append('\'');
            text.setLength(0);
        }
    }
}
