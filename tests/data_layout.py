"""The site's data files as the page finds them: each configuration (GPU, target, GPUs) has its
own files, indexed by that configuration's axes (the manifest's, narrowed by the configuration's
own). Written independently of the generator, like the page's data.js."""
import itertools

from generator.site_data import file_path


def configuration(manifest: dict, state: dict) -> dict:
    return next(c for c in manifest["configurations"]
                if (c["gpu"], c["target"], c["tp"]) == (state["gpu"], state["target"], state["tp"]))


def configuration_axes(manifest: dict, config: dict) -> dict:
    """The axes one configuration's tables are indexed by."""
    return {**manifest["axes"], **config["axes"],
            "gpu": [config["gpu"]], "target": [config["target"]], "tp": [config["tp"]]}


def file_of(manifest: dict, kind: str, state: dict) -> str:
    """Path under data/ of the ``kind`` file holding ``state`` (numeric axes by manifest position)."""
    return file_path(kind, state, manifest["axes"])


def every_file(manifest: dict):
    """(configuration, kind, coordinates, path under data/) for every file the page may fetch."""
    for config in manifest["configurations"]:
        axes = configuration_axes(manifest, config)
        for kind, spec in manifest["contract"]["files"].items():
            for values in itertools.product(*(axes[d] for d in spec["by"])):
                coords = dict(zip(spec["by"], values))
                yield config, kind, coords, file_of(manifest, kind, coords)


def index_of(manifest: dict, dims, state: dict) -> int:
    """Row-major position of ``state`` in a table with ``dims``, in the state's configuration."""
    axes = configuration_axes(manifest, configuration(manifest, state))
    i = 0
    for dim in dims:
        i = i * len(axes[dim]) + axes[dim].index(state[dim])
    return i
