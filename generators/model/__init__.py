"""The typed core every stage shares: records, the index, views' value types, verdicts. Imports no stage."""
