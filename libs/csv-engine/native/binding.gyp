{
  "targets": [
    {
      "target_name": "fingerprints",
      "sources": ["fingerprints.c"],
      "cflags": ["-O2", "-Wno-deprecated-declarations"],
      "xcode_settings": { "OTHER_CFLAGS": ["-O2", "-Wno-deprecated-declarations"] }
    }
  ]
}
