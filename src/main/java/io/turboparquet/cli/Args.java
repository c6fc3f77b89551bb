package io.turboparquet.cli;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Command-line flags: {@code --name value}, bare {@code --flag} switches, one-letter flags
 * ({@code -n 5}, read as {@code --n 5}), Hadoop configuration
 * properties ({@code -D key=value} or {@code -Dkey=value}), and positional words.
 */
public final class Args {
  private final Map<String, String> values = new HashMap<>();
  private final Map<String, String> properties = new LinkedHashMap<>();
  private final Set<String> used = new HashSet<>();
  private final List<String> positional = new ArrayList<>();

  public Args(String[] argv, Set<String> switches) {
    for (int i = 0; i < argv.length; i++) {
      String a = argv[i];
      if (a.startsWith("-D")) {
        String property = a.length() > 2 ? a.substring(2) : i + 1 < argv.length ? argv[++i] : "";
        int eq = property.indexOf('=');
        if (eq <= 0) {
          throw new UsageException("-D wants key=value, not " + (property.isEmpty() ? "nothing" : property));
        }
        properties.put(property.substring(0, eq), property.substring(eq + 1));
      } else if (a.startsWith("--")) {
        String name = a.substring(2);
        int eq = name.indexOf('=');
        if (eq >= 0) {
          values.put(name.substring(0, eq), name.substring(eq + 1));
        } else if (switches.contains(name)) {
          values.put(name, "true");
        } else if (i + 1 < argv.length) {
          values.put(name, argv[++i]);
        } else {
          throw new UsageException("--" + name + " needs a value");
        }
      } else if (a.length() == 2 && a.charAt(0) == '-' && Character.isLetter(a.charAt(1))) {
        if (i + 1 >= argv.length) {
          throw new UsageException(a + " needs a value");
        }
        values.put(a.substring(1), argv[++i]);
      } else {
        positional.add(a);
      }
    }
  }

  /** The {@code -D key=value} properties, in the order given. */
  public Map<String, String> properties() {
    return properties;
  }

  public List<String> positional() {
    return positional;
  }

  public String string(String name, String fallback) {
    used.add(name);
    return values.getOrDefault(name, fallback);
  }

  public int integer(String name, int fallback) {
    String v = string(name, null);
    try {
      return v == null ? fallback : Integer.parseInt(v);
    } catch (NumberFormatException e) {
      throw new UsageException("--" + name + " wants an integer, not " + v);
    }
  }

  public long longValue(String name, long fallback) {
    String v = string(name, null);
    try {
      return v == null ? fallback : Long.parseLong(v);
    } catch (NumberFormatException e) {
      throw new UsageException("--" + name + " wants an integer, not " + v);
    }
  }

  public boolean bool(String name, boolean fallback) {
    String v = string(name, null);
    if (v == null) {
      return fallback;
    }
    return switch (v.toLowerCase()) {
      case "true", "on", "yes", "1" -> true;
      case "false", "off", "no", "0" -> false;
      default -> throw new UsageException("--" + name + " wants true or false, not " + v);
    };
  }

  public boolean has(String name) {
    return values.containsKey(name);
  }

  /** The column list of {@code --columns a,b}, or null for all columns. */
  public List<String> columns() {
    String v = string("columns", null);
    return v == null || v.isBlank() ? null : Arrays.asList(v.split(","));
  }

  /** Fails on flags no command asked for, so a typo is not silently ignored. */
  public void rejectUnknown() {
    for (String name : values.keySet()) {
      if (!used.contains(name)) {
        throw new UsageException("unknown flag " + (name.length() == 1 ? "-" : "--") + name);
      }
    }
  }

  public static final class UsageException extends RuntimeException {
    public UsageException(String message) {
      super(message);
    }
  }
}
