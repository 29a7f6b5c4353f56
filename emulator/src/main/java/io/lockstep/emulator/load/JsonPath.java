package io.lockstep.emulator.load;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * A JSON path of the subset used by {@code jsonpaths} and {@code json_root}: {@code $}, then any of
 * {@code .name}, {@code ['name']}, {@code ["name"]} and {@code [index]} (StarRocks docs "STREAM LOAD", JSON).
 *
 * @param text  the path as written
 * @param steps field names (String) and array indexes (Integer), in order
 */
record JsonPath(String text, List<Object> steps) {

    /**
     * @throws LoadFormatException INVALID_ARGUMENT "Invalid json path: X" for a path outside the subset
     */
    static JsonPath parse(String text) throws LoadFormatException {
        String path = text.trim();
        if (!path.startsWith("$")) {
            throw invalid(text);
        }
        List<Object> steps = new ArrayList<>();
        int i = 1;
        while (i < path.length()) {
            char c = path.charAt(i);
            if (c == '.') {
                int start = ++i;
                while (i < path.length() && path.charAt(i) != '.' && path.charAt(i) != '[') {
                    i++;
                }
                if (i == start) {
                    throw invalid(text);
                }
                steps.add(path.substring(start, i));
            } else if (c == '[') {
                int close = path.indexOf(']', i);
                if (close < 0) {
                    throw invalid(text);
                }
                String inner = path.substring(i + 1, close).trim();
                if (inner.length() >= 2 && (inner.startsWith("'") && inner.endsWith("'")
                        || inner.startsWith("\"") && inner.endsWith("\""))) {
                    steps.add(inner.substring(1, inner.length() - 1));
                } else if (inner.matches("[0-9]+")) {
                    steps.add(Integer.valueOf(inner));
                } else {
                    throw invalid(text);
                }
                i = close + 1;
            } else {
                throw invalid(text);
            }
        }
        return new JsonPath(text, List.copyOf(steps));
    }

    private static LoadFormatException invalid(String text) {
        return new LoadFormatException("INVALID_ARGUMENT", "Invalid json path: " + text
                + " (the emulator reads $, .name, ['name'] and [index])");
    }

    /** @return the node at this path, or null when the document has nothing there */
    JsonNode select(JsonNode root) {
        JsonNode node = root;
        for (Object step : steps) {
            if (node == null) {
                return null;
            }
            if (step instanceof Integer index) {
                node = node.isArray() ? node.get(index) : null;
            } else {
                node = node.isObject() ? node.get((String) step) : null;
            }
        }
        return node;
    }
}
