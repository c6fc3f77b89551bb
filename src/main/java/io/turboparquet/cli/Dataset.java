package io.turboparquet.cli;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;

/**
 * The files a command reads as one dataset: FILE itself, every file under a directory (recursively),
 * or every file a glob ({@code *}, {@code ?}, {@code [ab]}, {@code {a,b}}) matches, a matched
 * directory counting with every file under it. Below what was named, hidden files and directories
 * (names starting with {@code _} or {@code .}, as Drill skips them: {@code _SUCCESS}, {@code
 * .crc}) are left out. Files come in the order of their paths, the same for every command and run.
 * Listing an object store is one request per thousand files ({@code listFiles}, recursive), and its
 * statuses carry the lengths, so opening a file needs no request of its own.
 */
record Dataset(Path path, List<FileStatus> files) {

  static Dataset resolve(FileSystem fs, Path path) throws IOException {
    List<FileStatus> named = new ArrayList<>();
    if (isGlob(path)) {
      FileStatus[] matched = fs.globStatus(path, p -> !hidden(p.getName()));
      if (matched == null || matched.length == 0) {
        throw new FileNotFoundException(path + ": no file matches");
      }
      named.addAll(List.of(matched));
    } else {
      named.add(fs.getFileStatus(path));
    }
    TreeMap<String, FileStatus> files = new TreeMap<>();
    for (FileStatus status : named) {
      if (!status.isDirectory()) {
        files.put(status.getPath().toString(), status);
        continue;
      }
      RemoteIterator<LocatedFileStatus> listed = fs.listFiles(status.getPath(), true);
      while (listed.hasNext()) {
        LocatedFileStatus file = listed.next();
        if (!hiddenBelow(status.getPath(), file.getPath())) {
          files.put(file.getPath().toString(), file);
        }
      }
    }
    if (files.isEmpty()) {
      throw new FileNotFoundException(path + ": no files (hidden ones, starting with _ or ., are skipped)");
    }
    return new Dataset(path, List.copyOf(files.values()));
  }

  private static boolean isGlob(Path path) {
    String s = path.toUri().getPath();
    return s.indexOf('*') >= 0 || s.indexOf('?') >= 0 || s.indexOf('[') >= 0 || s.indexOf('{') >= 0;
  }

  private static boolean hidden(String name) {
    return name.startsWith("_") || name.startsWith(".");
  }

  /** Whether {@code file} or a directory between it and {@code root} is hidden. */
  private static boolean hiddenBelow(Path root, Path file) {
    String top = root.toUri().getPath();
    for (Path p = file; p != null && p.toUri().getPath().length() > top.length(); p = p.getParent()) {
      if (hidden(p.getName())) {
        return true;
      }
    }
    return false;
  }
}
