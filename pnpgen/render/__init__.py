"""Rendering: fonts, paper, PDF plumbing, print-kit components and rulebooks."""
