"""The blur bench reads each photo sharp and blurred, with the blur test off."""

from vision import reader
from vision.blur_bench import measure, report


def test_the_blur_bench_sets_each_reading_beside_its_sharpness():
    readings = measure(1, 401, ["lumiere_faible"])
    assert reader.BLURRED == 10  # the test is off only while measuring
    assert [r.blur for r in readings] == [0.0, 1.5, 2.5, 4.0]
    sharp, *_, blurred = readings
    assert sharp.paper < 120 and sharp.raw < sharp.scaled  # a dim photo, measured against its light
    assert sharp.right and sharp.scaled >= reader.BLURRED  # the photo as taken reads whole
    assert blurred.scaled < reader.BLURRED  # a 4-pixel blur is refused
    assert not any(r.silent for r in readings)
    dim = report(readings, reader.BLURRED)["sombres"]
    assert dim["lectures"] == 4 and dim["silencieuses"] == 0
    assert dim["refusées mais justes"] == sum(r.right for r in readings if r.scaled < reader.BLURRED)
