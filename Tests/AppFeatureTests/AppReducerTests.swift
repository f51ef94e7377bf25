import AppFeature
