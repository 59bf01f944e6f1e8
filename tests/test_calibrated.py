

def test_the_extrapolation_note_says_what_is_carried_over_for_what_differs():
    """Found by a cold read: with only the target changed (still one H100) the note said the
    efficiencies "scale with the datasheet peaks" for the target; several causes read "for the GPU
    (…) and the target (…) and tensor parallelism (…)"."""
    from specmodel import State, default_catalog
    from specmodel.extrapolation import extrapolation_note
    catalog = default_catalog()
    assert extrapolation_note(State(), catalog) is None
    target_only = extrapolation_note(State(target="llama-3.1-8b-instruct", drafter="llama-3.2-1b"), catalog)
    assert "Llama-3.1-8B-Instruct is priced from its own bytes and FLOPs" in target_only
    assert "datasheet" not in target_only and "all-reduce" not in target_only
    gpu_only = extrapolation_note(State(gpu="h200"), catalog)
    assert "on the H200 SXM the achieved fractions of the datasheet peaks" in gpu_only
    assert "priced from its own" not in gpu_only and "all-reduce" not in gpu_only
    every = extrapolation_note(State(gpu="h200", target="llama-3.3-70b-instruct", tp=2, drafter="eagle3"), catalog)
    assert every.count(";") == 3 and " and the target" not in every and "on 2 GPUs each all-reduce" in every
