package viewer

import (
	"errors"

	"github.com/mentalmj/mentalmj/mjlog"
)

func fromTenhou6(data []byte, name string) (*mjlog.Game, error) {
	return nil, errors.New("tenhou.net/6 JSON is not read yet")
}

func fromMjai(data []byte, name string) (*mjlog.Game, error) {
	return nil, errors.New("mjai logs are not read yet")
}
