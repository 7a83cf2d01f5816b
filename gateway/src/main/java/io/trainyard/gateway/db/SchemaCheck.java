package io.trainyard.gateway.db;

import java.io.IOException;
import java.io.InputStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import javax.xml.XMLConstants;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.parsers.SAXParserFactory;
import org.xml.sax.Attributes;
import org.xml.sax.SAXException;
import org.xml.sax.helpers.DefaultHandler;

/**
 * Decides with one plain query whether the database already has every changeSet of the changelog,
 * so that a start on a current schema needs no Liquibase (booting it costs about 1.5 s, mostly
 * class loading and its own checks, even when there is nothing to apply).
 *
 * <p>"Current" is what Liquibase itself would find: every changeSet of the changelog that applies
 * to this database ({@code dbms}) has its row (id and author) in {@code DATABASECHANGELOG}. Rows
 * the changelog does not know (a newer gateway's) are ignored, as Liquibase ignores them. A
 * changelog this check cannot judge — a changeSet with {@code runAlways}, {@code runOnChange}, a
 * context or labels, an {@code include}, a {@code dbms} expression other than a list of names — is
 * never called current, so Liquibase decides. Not checked: that applied changeSets were not edited
 * since (Liquibase's checksums); the changelog's rule is never to edit an applied one.
 *
 * <p>Read-only and safe with several replicas: a changeSet's row is written when it is applied, so
 * a database found current stays current; one found behind goes to the locked Liquibase path.
 * Thread-safe; the changelog is read once per instance.
 */
final class SchemaCheck {
  /** A changeSet of the changelog and the databases it is for (empty: all). */
  record ChangeSet(String id, String author, Set<String> dbms, Set<String> notDbms) {
    boolean appliesTo(String database) {
      return (dbms.isEmpty() || dbms.contains(database)) && !notDbms.contains(database);
    }
  }

  private final Optional<List<ChangeSet>> changeSets;

  SchemaCheck(String changelogResource) {
    this.changeSets = read(changelogResource);
  }

  /**
   * The number of changeSets found applied when every one this database needs is there; empty when
   * something is missing, the log table does not exist yet, or the changelog cannot be judged.
   */
  Optional<Integer> currentCount(Connection connection) throws SQLException {
    if (changeSets.isEmpty()) {
      return Optional.empty();
    }
    var database = liquibaseName(connection.getMetaData().getDatabaseProductName());
    if (database.isEmpty() || !logTableExists(connection)) {
      return Optional.empty();
    }
    var applied = new HashSet<String>();
    try (var s = connection.createStatement();
        var r = s.executeQuery("SELECT ID, AUTHOR FROM DATABASECHANGELOG")) {
      while (r.next()) {
        applied.add(key(r.getString(1), r.getString(2)));
      }
    } catch (SQLException e) {
      // E.g. the table is in a schema off the search path: Liquibase knows where it goes.
      return Optional.empty();
    }
    for (var changeSet : changeSets.get()) {
      if (changeSet.appliesTo(database.get())
          && !applied.contains(key(changeSet.id(), changeSet.author()))) {
        return Optional.empty();
      }
    }
    return Optional.of(applied.size());
  }

  /** Whether the changelog could be read and judged (a test's check of this class's scope). */
  boolean judges() {
    return changeSets.isPresent();
  }

  private static String key(String id, String author) {
    return id + '\u0000' + author;
  }

  /** The names Liquibase's {@code dbms} attribute uses for the databases the gateway supports. */
  private static Optional<String> liquibaseName(String productName) {
    return switch (productName) {
      case "H2" -> Optional.of("h2");
      case "PostgreSQL" -> Optional.of("postgresql");
      default -> Optional.empty();
    };
  }

  private static boolean logTableExists(Connection connection) throws SQLException {
    var meta = connection.getMetaData();
    for (var name : new String[] {"DATABASECHANGELOG", "databasechangelog"}) {
      try (var tables = meta.getTables(null, null, name, new String[] {"TABLE"})) {
        if (tables.next()) {
          return true;
        }
      }
    }
    return false;
  }

  private static Optional<List<ChangeSet>> read(String resource) {
    var found = new ArrayList<ChangeSet>();
    var judgeable = new boolean[] {true};
    try (InputStream in = SchemaCheck.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        return Optional.empty();
      }
      var factory = SAXParserFactory.newInstance();
      factory.setNamespaceAware(true);
      factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
      factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      factory
          .newSAXParser()
          .parse(
              in,
              new DefaultHandler() {
                @Override
                public void startElement(
                    String uri, String localName, String qName, Attributes attributes) {
                  switch (localName) {
                    case "include", "includeAll" -> judgeable[0] = false;
                    case "changeSet" -> {
                      var changeSet = changeSet(attributes);
                      if (changeSet.isEmpty()) {
                        judgeable[0] = false;
                      } else {
                        found.add(changeSet.get());
                      }
                    }
                    default -> {}
                  }
                }
              });
    } catch (IOException | SAXException | ParserConfigurationException e) {
      return Optional.empty();
    }
    return judgeable[0] && !found.isEmpty() ? Optional.of(List.copyOf(found)) : Optional.empty();
  }

  /**
   * Empty when the changeSet's attributes make it one Liquibase may run again or skip by choice.
   */
  private static Optional<ChangeSet> changeSet(Attributes attributes) {
    for (var attribute :
        new String[] {"runAlways", "runOnChange", "context", "contextFilter", "labels"}) {
      var value = attributes.getValue(attribute);
      if (value != null && !value.isBlank() && !"false".equalsIgnoreCase(value.trim())) {
        return Optional.empty();
      }
    }
    var id = attributes.getValue("id");
    var author = attributes.getValue("author");
    if (id == null || author == null) {
      return Optional.empty();
    }
    var dbms = new HashSet<String>();
    var notDbms = new HashSet<String>();
    var list = attributes.getValue("dbms");
    if (list != null) {
      for (var part : list.split(",")) {
        var name = part.trim().toLowerCase(Locale.ROOT);
        if (name.startsWith("!") && name.length() > 1 && name.substring(1).matches("[a-z0-9]+")) {
          notDbms.add(name.substring(1));
        } else if (name.matches("[a-z0-9]+") && !name.equals("all") && !name.equals("none")) {
          dbms.add(name);
        } else {
          return Optional.empty();
        }
      }
    }
    return Optional.of(new ChangeSet(id, author, Set.copyOf(dbms), Set.copyOf(notDbms)));
  }
}
