"""Stage 1 (load) and the bad-input statuses of the whole reader."""

import io

import cv2
import numpy as np
import pytest
from PIL import Image

from vision.load import MAX_PIXELS, load_image
from vision.status import ILLISIBLE, VisionError


def _jpeg(img: np.ndarray, quality: int = 90) -> bytes:
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return buf.tobytes()


@pytest.mark.parametrize(
    "data", [b"", b"not an image at all, just text" * 3, b"\x89PNG\r\n\x1a\n" + b"\0" * 40]
)
def test_not_an_image_is_illisible(data):
    with pytest.raises(VisionError) as err:
        load_image(data)
    assert err.value.status == ILLISIBLE


def test_truncated_jpeg_is_illisible():
    data = _jpeg(np.full((800, 600, 3), 200, np.uint8))
    with pytest.raises(VisionError) as err:
        load_image(data[: len(data) // 3])
    assert err.value.status == ILLISIBLE


def test_one_pixel_is_illisible():
    with pytest.raises(VisionError) as err:
        load_image(_jpeg(np.zeros((1, 1, 3), np.uint8)))
    assert "petite" in str(err.value)


def test_missing_file_is_illisible(tmp_path):
    with pytest.raises(VisionError):
        load_image(tmp_path / "absent.jpg")


def test_huge_photo_is_downscaled_to_20_megapixels():
    big = np.full((10000, 10000), 180, np.uint8)  # 100 MP
    big[::500] = 20
    data = _jpeg(big, 50)
    img = load_image(data)
    h, w = img.shape[:2]
    assert h * w <= MAX_PIXELS and h * w > MAX_PIXELS / 8
    assert abs(w / h - 1) < 0.01


def test_exif_orientation_is_honoured():
    arr = np.zeros((300, 500, 3), np.uint8)
    arr[:, :100] = 255  # white band on the left
    pil = Image.fromarray(arr)
    exif = pil.getexif()
    exif[0x0112] = 6  # rotate 90° clockwise on display
    buf = io.BytesIO()
    pil.save(buf, "JPEG", exif=exif.tobytes())
    img = load_image(buf.getvalue())
    assert img.shape[:2] == (500, 300)
    assert img[:100].mean() > 200 and img[-100:].mean() < 50  # the band is now on top


def test_png_and_path(tmp_path):
    path = tmp_path / "photo.png"
    cv2.imwrite(str(path), np.full((400, 300), 128, np.uint8))
    img = load_image(path)
    assert img.shape == (400, 300, 3)


def test_a_12_megapixel_photo_is_decoded_at_half_size():
    photo = np.full((3000, 4000, 3), 200, np.uint8)
    photo[:, :2000] = 40  # dark left half
    img = load_image(_jpeg(photo, 85))
    assert img.shape[:2] == (1500, 2000)  # enough for the reader, 4× less to decode
    assert img[:, :900].mean() < 60 and img[:, 1100:].mean() > 180
    small = load_image(_jpeg(np.full((1200, 1600, 3), 200, np.uint8), 85))
    assert small.shape[:2] == (1200, 1600)  # an ordinary photo keeps every pixel


def _pillow_reference(data: bytes, reduction: int = 2) -> np.ndarray:
    """What Pillow alone makes of a JPEG: draft decoding at 1/``reduction`` asked, then
    EXIF upright."""
    from PIL import ImageOps

    img = Image.open(io.BytesIO(data))
    w, h = img.size
    img.draft("RGB", (-(-w // reduction), -(-h // reduction)))
    img = ImageOps.exif_transpose(img)
    return cv2.cvtColor(np.asarray(img.convert("RGB")), cv2.COLOR_RGB2BGR)


def _gradient_photo(h: int, w: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    photo = np.zeros((h, w, 3), np.uint8)
    photo[:, :, 0] = np.linspace(0, 255, w, dtype=np.uint8)[None, :]
    photo[:, :, 1] = np.linspace(0, 255, h, dtype=np.uint8)[:, None]
    photo[h // 10:h * 3 // 10, w // 20:w * 9 // 40] = 255  # a corner patch shows any wrong turn
    photo[:, :, 2] = rng.integers(0, 256, (h, w), dtype=np.uint8) // 4 + 100
    return photo


@pytest.mark.parametrize("orientation", range(1, 9))
def test_a_phone_jpeg_gives_pillows_pixels_in_every_exif_orientation(orientation):
    # OpenCV decodes phone photos (faster); each pixel must be Pillow's, turned the same way
    photo = _gradient_photo(1000, 4000, orientation)
    pil = Image.fromarray(cv2.cvtColor(photo, cv2.COLOR_BGR2RGB))
    exif = pil.getexif()
    exif[0x0112] = orientation
    buf = io.BytesIO()
    pil.save(buf, "JPEG", quality=85, exif=exif.tobytes())
    data = buf.getvalue()
    img = load_image(data)
    expected = _pillow_reference(data)
    assert img.shape == expected.shape
    assert img.shape[:2] == ((500, 2000) if orientation < 5 else (2000, 500))
    assert np.array_equal(img, expected)


def test_other_jpegs_get_pillows_pixels_too():
    """A side of odd length (Pillow's draft mode keeps it whole at 1/2), a grey photo, one
    reduced to a quarter; and a photo whose bytes stop short is refused, never decoded in
    part."""
    photo = _gradient_photo(1000, 4000, 9)
    odd = cv2.imencode(".jpg", cv2.copyMakeBorder(photo[:999], 0, 0, 0, 1, cv2.BORDER_REPLICATE))[1]
    odd = odd.tobytes()
    assert load_image(odd).shape == (999, 4001, 3)
    assert np.array_equal(load_image(odd), _pillow_reference(odd))
    grey = cv2.imencode(".jpg", cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY))[1].tobytes()
    assert np.array_equal(load_image(grey), _pillow_reference(grey))
    assert load_image(grey).shape == (500, 2000, 3)
    big = cv2.imencode(".jpg", cv2.resize(photo, (8000, 2000)))[1].tobytes()
    assert load_image(big).shape == (500, 2000, 3)  # 1/4: 2000 px on the long side still
    assert np.array_equal(load_image(big), _pillow_reference(big, 4))
    with pytest.raises(VisionError) as err:
        load_image(odd[: len(odd) * 2 // 3])
    assert err.value.status == ILLISIBLE
